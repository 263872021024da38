import {
  cardMachine,
  featureUsageRecord,
  selectCardData,
  selectCardExpanded,
  selectCardMessage,
  selectCardPeriod,
  selectCardSearch,
  selectCardToggle,
  selectCardView,
} from "@varia/machines";
import { periodFormat, periodFromKey } from "@varia/period";
import { useActorRef, useSelector } from "@xstate/react";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
} from "react";
import { useLocation } from "react-router";
import { fromPromise } from "xstate";
import { CompactSelect } from "../../ui/CompactSelect";
import { AppDialog } from "../../ui/Dialog";
import { useFormat } from "../../ui/format";
import { Icon } from "../../ui/Icon";
import { Segmented } from "../../ui/Segmented";
import { HelpTooltip } from "../../ui/Tooltip";
import { useViewFilter } from "../filters/use-view-filter";
import type { ViewFilter } from "../filters/view-filter";
import { useGo } from "../navigation/use-go";
import { useAlert, useRecordUsage } from "../workspace-actors";
import { cardPeriodOf, cardToggleOf, cardToggleParamValue, withoutCardChoices } from "./card-choice";
import { downloadScreenshot, screenshotFileName } from "./card-screenshot";
import type { CardDefinition } from "./card-types";
import { HelpText } from "./HelpText";
import { periodOptionLabel, periodOptionSets } from "./period-options";

export const screenshotFailedMessage = "Error occurred while downloading screenshot of card";

/** A card tells its page when its content is on screen (drawn), for the page's timing mark. */
const DrawnContext = createContext<() => void>(() => {});

/** Renderers call this once their content is on screen (charts once Plotly has drawn). */
export function useCardDrawn() {
  return useContext(DrawnContext);
}

/** Calls `drawn` once after the first render (renderers without anything asynchronous). */
export function useDrawnOnMount() {
  const drawn = useCardDrawn();
  useEffect(() => drawn(), [drawn]);
}

function periodsText(filter: ViewFilter) {
  const show = (key: string | null) => (key ? periodFormat(periodFromKey(key)) : "");
  return filter.dateFrom && filter.dateTo
    ? `${show(filter.dateFrom)} - ${show(filter.dateTo)}`
    : show(filter.dateTo);
}

/**
 * The frame of every card: it runs the card machine (loading, error, empty, content, expanded),
 * shows the heading with its help text, the card's period, toggle and search, and downloads a
 * screenshot of itself. The catalogue entry says what it calls and how it draws.
 */
export function Card<D>({
  definition,
  filter: viewFilter,
  onDrawn,
}: {
  definition: CardDefinition<D>;
  /** The page's filter (with the cards' own choices, which only the card that owns one reads). */
  filter: ViewFilter;
  /** The card's content is on screen (or it settled on a message). */
  onDrawn?: (id: string, view: "content" | "empty" | "error") => void;
}) {
  const record = useRecordUsage();
  const alert = useAlert();
  const format = useFormat();
  const navigate = useGo();
  const location = useLocation();
  const machine = useMemo(
    () =>
      cardMachine.provide({
        actors: {
          load: fromPromise(({ input, signal }) =>
            definition.load(
              {
                filter: input.params as ViewFilter,
                period: input.period,
                toggle: input.toggle,
                search: input.search,
              },
              signal,
            ),
          ),
        },
        actions: {
          recordFeatureUsage: (_, params) => record(featureUsageRecord(params.feature, params.action)),
        },
      }),
    [definition, record],
  );
  const periods = definition.periodOptions ? periodOptionSets[definition.periodOptions] : undefined;
  const { setFilter } = useViewFilter();
  // The toggle and period the address names (apps/web/README.md, "The card system"); the rest of the
  // filter is what the card's call depends on.
  const addressToggle = cardToggleOf(definition.toggle, viewFilter);
  const addressPeriod = cardPeriodOf(definition, viewFilter);
  const filter = useMemo(() => withoutCardChoices(viewFilter), [viewFilter]);
  // What the card measures, as the view does (docs/behaviour.md, "Revenue and margin").
  const heading =
    filter.dataType === "Margin" && definition.marginHeading ? definition.marginHeading : definition.heading;
  const actor = useActorRef(machine, {
    input: {
      name: definition.heading,
      ...(addressPeriod !== null ? { period: addressPeriod } : {}),
      ...(addressToggle !== null ? { toggle: addressToggle } : {}),
      params: filter,
      searchReloads: definition.searchable ?? false,
    },
  });
  useEffect(() => actor.send({ type: "card.params", params: filter }), [actor, filter]);
  // Back, Forward or a link to this page with another choice of the card's.
  const toggleParam = definition.toggle?.param;
  useEffect(() => {
    if (!toggleParam || addressToggle === null) return;
    if (actor.getSnapshot().context.toggle !== addressToggle)
      actor.send({ type: "card.toggle", value: addressToggle });
  }, [actor, toggleParam, addressToggle]);
  const periodParam = definition.periodParam;
  useEffect(() => {
    if (!periodParam || addressPeriod === null) return;
    if (actor.getSnapshot().context.period !== addressPeriod)
      actor.send({ type: "card.period", period: addressPeriod });
  }, [actor, periodParam, addressPeriod]);
  const chooseToggle = (value: string) => {
    actor.send({ type: "card.toggle", value });
    if (definition.toggle?.param)
      setFilter(
        { [definition.toggle.param]: cardToggleParamValue(definition.toggle, value) },
        { replace: true },
      );
  };

  // A link inside the expanded card that opens another view of the same page (a month of the
  // year-end chart, of a history) closes the dialog: the new view is behind it.
  const shownView = `${location.pathname} ${JSON.stringify(filter)}`;
  const viewShown = useRef(shownView);
  useEffect(() => {
    if (viewShown.current === shownView) return;
    viewShown.current = shownView;
    if (selectCardExpanded(actor.getSnapshot())) actor.send({ type: "card.shrink" });
  }, [actor, shownView]);

  const view = useSelector(actor, selectCardView);
  const message = useSelector(actor, selectCardMessage);
  const data = useSelector(actor, selectCardData) as D | null;
  const expanded = useSelector(actor, selectCardExpanded);
  const period = useSelector(actor, selectCardPeriod);
  const toggle = useSelector(actor, selectCardToggle);
  const search = useSelector(actor, selectCardSearch);
  // The period shown, whether chosen or set by expanding and shrinking, is the one the address
  // names (in place of the entry, as a toggle's choice). Only a change of the card's own runs this.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the address following the card, not the reverse
  useEffect(() => {
    if (periodParam && period !== addressPeriod) setFilter({ [periodParam]: period }, { replace: true });
  }, [period]);
  const headingId = useId();
  const frame = useRef<HTMLElement>(null);
  const dialogBody = useRef<HTMLDivElement>(null);

  // The page's timing mark: content counts once drawn (once per load: a reload may bring the very
  // same answer, shared with another card); a message at once.
  const loads = useRef(0);
  const drawnFor = useRef(-1);
  const reportDrawn = useCallback(() => {
    if (drawnFor.current === loads.current) return;
    drawnFor.current = loads.current;
    if (frame.current) frame.current.dataset.drawn = "true";
    onDrawn?.(definition.id, "content");
  }, [definition.id, onDrawn]);
  useEffect(() => {
    if (view === "loading") {
      loads.current += 1;
      if (frame.current) frame.current.dataset.drawn = "false";
    }
    if (view === "empty" || view === "error") {
      if (frame.current) frame.current.dataset.drawn = "true";
      onDrawn?.(definition.id, view);
    }
  }, [view, definition.id, onDrawn]);

  const screenshot = async (node: HTMLElement | null) => {
    if (!node) return;
    try {
      await downloadScreenshot(node, screenshotFileName(periodsText(filter), heading, new Date()));
    } catch {
      alert(screenshotFailedMessage);
    }
  };

  const renderBody = (inExpanded: boolean): ReactNode => {
    if (view === "loading")
      return (
        <div className="card__status" role="status" aria-label={`Loading ${heading}`}>
          <span className="spinner spinner--dark" aria-hidden="true" />
        </div>
      );
    if (view === "error")
      return (
        <div className="card__status card__status--error" role="alert">
          <p>{message}</p>
          <button
            type="button"
            className="button button--secondary button--small"
            onClick={() => actor.send({ type: "card.retry" })}
          >
            Try again
          </button>
        </div>
      );
    if (view === "empty" || data === null)
      return (
        <div className="card__status">
          <p>{message}</p>
        </div>
      );
    const Renderer = definition.render;
    return (
      <DrawnContext.Provider value={inExpanded ? () => {} : reportDrawn}>
        <Renderer
          data={data}
          filter={filter}
          linkFilter={viewFilter}
          period={period}
          toggle={toggle}
          search={search}
          expanded={inExpanded}
          format={format}
          onSearch={(term) => actor.send({ type: "card.search", term })}
          navigate={navigate}
          here={location.pathname}
        />
      </DrawnContext.Provider>
    );
  };

  const settings = () =>
    definition.toggle || periods || definition.searchable ? (
      <div className="card__toolbar" data-screenshot="skip">
        {definition.toggle?.display === "select" ? (
          <CompactSelect
            label={definition.toggle.label}
            options={definition.toggle.options}
            value={toggle ?? definition.toggle.options[0]!.value}
            onChange={chooseToggle}
          />
        ) : definition.toggle ? (
          <Segmented
            size="small"
            label={definition.toggle.label}
            options={definition.toggle.options}
            value={toggle ?? definition.toggle.options[0]!.value}
            onChange={chooseToggle}
          />
        ) : null}
        {periods ? (
          <CompactSelect
            label="Periods"
            options={periods.map((o) => ({ value: String(o.value), label: periodOptionLabel(o) }))}
            value={String(period)}
            onChange={(value) => actor.send({ type: "card.period", period: Number(value) })}
          />
        ) : null}
        {definition.searchable ? (
          <input
            className="card__search"
            type="search"
            aria-label={`Search ${heading}`}
            placeholder="Search for..."
            value={search}
            onChange={(event) => actor.send({ type: "card.search", term: event.target.value })}
          />
        ) : null}
      </div>
    ) : null;

  // The buttons are aria-disabled, not disabled, while the card has no content: shrinking an
  // expanded card reloads it, and a disabled Expand could not take back the focus the dialog
  // returns to it (docs/behaviour.md, "Keyboard").
  const noContent = view !== "content";
  const actions = (inExpanded: boolean) => (
    <div className="card__actions" data-screenshot="skip">
      <button
        type="button"
        className="icon-button"
        aria-label={`Download a screenshot of ${heading}`}
        title="Download screenshot"
        onClick={() => {
          if (!noContent) screenshot(inExpanded ? dialogBody.current : frame.current);
        }}
        aria-disabled={noContent}
      >
        <Icon name="download" size={16} />
      </button>
      {definition.expandable && !inExpanded ? (
        <button
          type="button"
          className="icon-button"
          aria-label={`Expand ${heading}`}
          title="Expand"
          onClick={() => {
            if (!noContent) actor.send({ type: "card.expand" });
          }}
          aria-disabled={noContent}
        >
          <Icon name="expand" size={16} />
        </button>
      ) : null}
    </div>
  );

  const help = (
    <HelpTooltip
      label={`About ${heading}`}
      onOpenChange={(open) => actor.send({ type: open ? "card.showHelp" : "card.hideHelp" })}
    >
      <HelpText
        helpKey={definition.helpKey}
        dateFrom={filter.dateFrom}
        dateTo={filter.dateTo}
        title={heading === definition.heading ? undefined : heading}
      />
    </HelpTooltip>
  );
  const subtitle = definition.subtitle?.({ filter, period, toggle, search });

  return (
    <section
      ref={frame}
      className={`card card--${definition.id}`}
      aria-labelledby={subtitle ? `${headingId} ${headingId}-subtitle` : headingId}
      data-card={definition.id}
      data-card-state={view}
      aria-busy={view === "loading"}
    >
      <header className="card__header">
        <div className="card__title">
          <h2 id={headingId} className="card__heading">
            {heading}
          </h2>
          {help}
        </div>
        {actions(false)}
        {subtitle ? (
          <p id={`${headingId}-subtitle`} className="card__subtitle">
            {subtitle}
          </p>
        ) : null}
      </header>
      {settings()}
      <div className="card__body">{renderBody(false)}</div>
      {expanded ? (
        <AppDialog
          title={heading}
          size="wide"
          onClose={() => actor.send({ type: "card.shrink" })}
          headerActions={actions(true)}
          className="card-dialog"
        >
          <div ref={dialogBody} className="card card--expanded" data-card-expanded={definition.id}>
            {subtitle ? <p className="card__subtitle">{subtitle}</p> : null}
            {settings()}
            <div className="card__body">{renderBody(true)}</div>
          </div>
        </AppDialog>
      ) : null}
    </section>
  );
}
