import {
  type AnalyticsFilter,
  activityTable,
  activityTableGet,
  chartClientKpis,
  chartOverviewKpi,
  chartRevenueBySegment,
  chartSpecificMrrKpi,
  christmasChart,
  clientsSubscribedKpi,
  comparisonKpiChart,
  expandedClientsSubscribedKpi,
  expandedSpecificRankContributionKpi,
  gridGeneralKpi,
  gridSpecificKpi,
  lineChart,
  lostMrrKpi,
  lostRankContributionKpi,
  overviewKpi,
  powerfulBar,
  simpleKpiChart,
  skuDetail,
  specificClientDetail,
  specificDonutChart,
  specificMrrKpi,
  specificRankContributionKpi,
  specificSalespersonDetail,
  tableInvoiceData,
  trendChart,
  varianceBars,
  waterfallChart,
} from "@varia/contracts";
import {
  type Cube,
  christmas,
  kpis,
  rankClients,
  revenueBySegment,
  startsTheData,
  trend,
  type VarianceResult,
  variance,
  waterfall,
} from "@varia/variance";
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import { activeSpans } from "../analytics/client-spans";
import { type Analysis, analysisFor } from "../analytics/cube-cache";
import {
  memo,
  memoQuery,
  type ResolvedFilter,
  resolveFilter,
  yearMonthOf,
} from "../analytics/resolve-filter";
import {
  activityRow,
  byTypeCents,
  kpiResponse,
  pageRows,
  searchRows,
  segmentOf,
  segmentRows,
  seriesPoint,
  type TableQuery,
} from "../analytics/responses";
import type { AuthContext } from "../http/auth-context";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";
import { countInvoiceLines, invoiceLinePage, type LineTableFilter } from "../lines/invoice-line-table";

type Filter = Partial<AnalyticsFilter> & { dataType?: "Revenue" | "Margin"; showAdhoc?: boolean | undefined };
/** The query of the two-month charts (ChristmasChart, WaterfallChart) as their calls parse it. */
type TwoMonthChartQuery = z.output<NonNullable<(typeof christmasChart | typeof waterfallChart)["query"]>>;

/** The analytics calls (docs/api.md); every number comes from @varia/variance over the cube. */
export async function analyticsRoutes(app: FastifyInstance, deps: AppDeps) {
  // The organisation's cube with its exclusions: every query below comes from `resolve`, which puts
  // the exclusions in, and every result is kept with the analysis it was computed for.
  const analysisOf = (auth: AuthContext | null) => analysisFor(deps, auth!.organisation.id);
  const resolve = (analysis: Analysis, filter: Filter, overrides?: { dateFrom?: string; dateTo?: string }) =>
    resolveFilter(analysis, filter as Partial<AnalyticsFilter>, deps.now(), overrides);
  const full = (analysis: Analysis, q: ResolvedFilter) =>
    memo(
      analysis,
      `variance:${JSON.stringify(q)}`,
      () => variance(analysis.cube, q),
      (r) => r.lines.length + r.contributions.length,
    );
  const kpisOf = (analysis: Analysis, q: ResolvedFilter) =>
    memo(analysis, `kpis:${JSON.stringify(q)}`, () => kpis(analysis.cube, q));

  /** The filter of the two-month charts (ChristmasChart, WaterfallChart), whose calls name it in capitals. */
  const resolveTwoMonthChart = (analysis: Analysis, query: TwoMonthChartQuery) =>
    resolve(
      analysis,
      {
        ...query,
        dataType: query.DataType,
        stockType: query.StockType,
        recordTypeFrom: query.RecordTypeFrom,
        recordTypeTo: query.RecordTypeTo,
        salespersonID: query.salespersonID ?? query.ResponsiblePersonID,
      },
      { dateFrom: query.DateFrom, dateTo: query.DateTo },
    );

  registerContract(app, deps, christmasChart, async ({ auth, query }) => {
    const analysis = await analysisOf(auth);
    const { cube } = analysis;
    const q = resolveTwoMonthChart(analysis, query);
    const points = memo(
      analysis,
      `christmas:${query.PeriodFrom}:${query.PeriodTo}:${JSON.stringify(q)}`,
      () =>
        christmas(cube, {
          ...q,
          periodFrom: resolve(analysis, {}, { dateTo: query.PeriodFrom }).to,
          periodTo: resolve(analysis, {}, { dateTo: query.PeriodTo }).to,
        }),
    );
    // VarianceType narrows the stacks (and the net line) to one type.
    const only = query.VarianceType;
    return {
      points: points.map((p) => {
        const byType = byTypeCents(p.byType);
        const startsTheData = p.startsTheData;
        if (!only) return { period: yearMonthOf(p.month), byType, netCents: p.net, startsTheData };
        for (const [type, sums] of Object.entries(byType)) {
          if (type !== only) Object.assign(sums, { positiveCents: 0, negativeCents: 0 });
        }
        return {
          period: yearMonthOf(p.month),
          byType,
          netCents: byType[only].positiveCents + byType[only].negativeCents,
          startsTheData,
        };
      }),
    };
  });

  registerContract(app, deps, trendChart, async ({ auth, query }) => {
    const analysis = await analysisOf(auth);
    const { cube } = analysis;
    const q = resolve(
      analysis,
      {
        ...query,
        dataType: query.DataType,
        recordTypeFrom: query.RecordTypeFrom,
        recordTypeTo: query.RecordType ?? query.RecordTypeTo,
        stockItemID: query.SkuID ?? query.stockItemID,
        salespersonID: query.salespersonID ?? query.ResponsiblePersonID,
        showAdhoc: query.ShowAdhoc,
      },
      { dateTo: query.PeriodTo },
    );
    const byType = (query.VarType ?? query.VarianceType) !== undefined;
    const points = memo(analysis, `trend:${query.PeriodCount}:${byType}:${JSON.stringify(q)}`, () =>
      trend(cube, { ...q, periodTo: q.to, periodCount: query.PeriodCount, byType }),
    );
    return { points: points.map(seriesPoint) };
  });

  registerContract(app, deps, waterfallChart, async ({ auth, query }) => {
    const analysis = await analysisOf(auth);
    const { cube } = analysis;
    const q = resolveTwoMonthChart(analysis, query);
    const steps = memo(analysis, `waterfall:${JSON.stringify(q)}`, () => waterfall(cube, q));
    return {
      steps: steps.map((s) => ({
        label: s.label,
        kind: s.kind,
        ...(s.type ? { type: s.type } : {}),
        ...(s.sign ? { sign: s.sign } : {}),
        valueCents: s.value,
      })),
    };
  });

  const activity = async (
    auth: AuthContext | null,
    input: Filter & TableQuery & { badgeVariant?: string | undefined },
  ) => {
    const analysis = await analysisOf(auth);
    const { cube } = analysis;
    const q = resolve(analysis, input);
    // The filtered and sorted rows are kept with the cube, so paging through them costs a slice.
    const key = `activity:${JSON.stringify([q, input.search, input.sortBy, input.sortDir, input.badgeVariant])}`;
    const table = memo(
      analysis,
      key,
      () => {
        let rows = full(analysis, q).lines.map((line) => activityRow(cube, line));
        if (q.varType) {
          rows = rows.filter((r) => {
            const value = r.parts[q.varType!];
            return value !== undefined && value !== 0 && (!q.sign || (q.sign === "Positive") === value > 0);
          });
        }
        if (input.badgeVariant) rows = rows.filter((r) => r.badgeVariant === input.badgeVariant);
        const all = pageRows(rows, { ...input, startRow: 0, rowLimit: Number.MAX_SAFE_INTEGER }, [
          "clientCode",
          "clientName",
          "itemCode",
          "itemName",
          "salesperson",
        ]);
        const recurring = all.rows.filter((r) => r.status !== "Adhoc");
        const valueFromCents = recurring.reduce((s, r) => s + r.valueFromCents, 0);
        const valueCents = recurring.reduce((s, r) => s + r.valueCents, 0);
        // The listed lines' parts of the type: the engine's own per-line figures, whose sum is the
        // waterfall's step when nothing narrows the list (docs/methodology.md, "Signs, contributions and lists").
        const type = q.varType;
        const step = type ? { stepCents: all.rows.reduce((s, r) => s + (r.parts[type] ?? 0), 0) } : {};
        return {
          rows: all.rows,
          totals: { valueCents, valueCentsVariance: valueCents - valueFromCents, valueFromCents, ...step },
        };
      },
      (t) => t.rows.length,
    );
    return {
      rows: table.rows.slice(input.startRow, input.startRow + input.rowLimit),
      rowCount: table.rows.length,
      startRow: input.startRow,
      totals: table.totals,
    };
  };
  registerContract(app, deps, activityTableGet, ({ auth, query }) => activity(auth, query));
  registerContract(app, deps, activityTable, ({ auth, body }) =>
    activity(auth, { ...body, showAdhoc: body.showAdhoc === true }),
  );

  const overview = async (auth: AuthContext | null, filter: Filter) => {
    const analysis = await analysisOf(auth);
    const q = resolve(analysis, filter);
    const result = kpisOf(analysis, q);
    const adhoc = q.showAdhoc ? full(analysis, q).adhocTo : undefined;
    return kpiResponse(result, q.from, q.to, adhoc);
  };
  registerContract(app, deps, overviewKpi, ({ auth, query }) => overview(auth, query));
  registerContract(app, deps, chartOverviewKpi, ({ auth, body }) =>
    overview(auth, { ...body, showAdhoc: body.showAdhoc === true }),
  );

  const specificMrr = async (auth: AuthContext | null, filter: Filter) => {
    const analysis = await analysisOf(auth);
    const q = resolve(analysis, filter);
    const k = kpisOf(analysis, q);
    return {
      periodFrom: yearMonthOf(q.from),
      periodTo: yearMonthOf(q.to),
      mrrCents: k.mrr,
      mrrFromCents: k.mrrFrom,
      mrrCentsVariance: k.mrr - k.mrrFrom,
      arrCents: k.arr,
    };
  };
  registerContract(app, deps, specificMrrKpi, ({ auth, query }) => specificMrr(auth, query));
  registerContract(app, deps, chartSpecificMrrKpi, ({ auth, body }) =>
    specificMrr(auth, { ...body, showAdhoc: body.showAdhoc === true }),
  );

  const ranked = (analysis: Analysis, q: ResolvedFilter, month: number) =>
    memo(
      analysis,
      `rank:${month}:${JSON.stringify({ ...q, clientId: undefined })}`,
      () => rankClients(analysis.cube, { ...q, clientId: undefined, month }),
      (r) => r.length,
    );
  const rankedRow = (
    cube: Cube,
    r: { clientId: number; value: number; rank: number; contribution: number },
  ) => ({
    clientID: r.clientId,
    clientCode: cube.clients.get(r.clientId)?.code ?? "",
    clientName: cube.clients.get(r.clientId)?.name ?? "",
    valueCents: r.value,
    rank: r.rank,
    contribution: r.contribution,
  });

  registerContract(app, deps, specificRankContributionKpi, async ({ auth, query }) => {
    const analysis = await analysisOf(auth);
    const q = resolve(analysis, query);
    const list = ranked(analysis, q, q.to);
    const own = q.clientId === undefined ? list[0] : list.find((r) => r.clientId === q.clientId);
    return {
      period: yearMonthOf(q.to),
      clientID: own?.clientId ?? null,
      rank: own?.rank ?? null,
      contribution: own?.contribution ?? null,
      valueCents: own?.value ?? 0,
      clientCount: list.length,
    };
  });

  registerContract(app, deps, expandedSpecificRankContributionKpi, async ({ auth, query }) => {
    const analysis = await analysisOf(auth);
    const { cube } = analysis;
    const q = resolve(analysis, query);
    const rows = ranked(analysis, q, q.to).map((r) => rankedRow(cube, r));
    return pageRows(rows, query, ["clientCode", "clientName"]);
  });

  registerContract(app, deps, clientsSubscribedKpi, async ({ auth, query }) => {
    const analysis = await analysisOf(auth);
    const q = resolve(analysis, query);
    const k = kpisOf(analysis, q);
    const result = full(analysis, q);
    return {
      periodFrom: yearMonthOf(q.from),
      periodTo: yearMonthOf(q.to),
      clientsSubscribed: k.clientsSubscribed,
      clientsSubscribedFrom: k.clientsSubscribedFrom,
      variance: k.clientsSubscribed - k.clientsSubscribedFrom,
      acquired: result.acquiredClients.length,
      lost: result.lostClients.length,
    };
  });

  registerContract(app, deps, expandedClientsSubscribedKpi, async ({ auth, query }) => {
    const analysis = await analysisOf(auth);
    const { cube } = analysis;
    const q = resolve(analysis, query);
    const result = full(analysis, q);
    const acquired = new Set(result.acquiredClients.map((c) => c.clientId));
    const rows = [
      ...ranked(analysis, q, q.to).map((r) => ({
        ...rankedRow(cube, r),
        badgeVariant: acquired.has(r.clientId) ? ("new" as const) : ("existing" as const),
      })),
      ...result.lostClients.map((c, i) => ({
        ...rankedRow(cube, { clientId: c.clientId, value: c.value, rank: 0, contribution: 0 }),
        rank: i + 1,
        badgeVariant: "lost" as const,
      })),
    ];
    return pageRows(rows, query, ["clientCode", "clientName"]);
  });

  registerContract(app, deps, lostMrrKpi, async ({ auth, query }) => {
    const analysis = await analysisOf(auth);
    const q = resolve(analysis, query);
    const result = full(analysis, q);
    return {
      periodFrom: yearMonthOf(q.from),
      periodTo: yearMonthOf(q.to),
      lostMrrCents: result.byType.Client.negative,
      lostClients: result.lostClients.length,
    };
  });

  registerContract(app, deps, lostRankContributionKpi, async ({ auth, query }) => {
    const analysis = await analysisOf(auth);
    const { cube } = analysis;
    const q = resolve(analysis, query);
    const result = full(analysis, q);
    const before = new Map(ranked(analysis, q, q.from).map((r) => [r.clientId, r]));
    const rows = result.lostClients.map((c) => {
      const r = before.get(c.clientId);
      return {
        ...rankedRow(cube, {
          clientId: c.clientId,
          value: c.value,
          rank: r?.rank ?? 0,
          contribution: r?.contribution ?? 0,
        }),
        badgeVariant: "lost" as const,
      };
    });
    const order = {
      Revenue: (a: (typeof rows)[number], b: (typeof rows)[number]) => a.valueCents - b.valueCents,
      Rank: (a: (typeof rows)[number], b: (typeof rows)[number]) => a.rank - b.rank,
      Contribution: (a: (typeof rows)[number], b: (typeof rows)[number]) => b.contribution - a.contribution,
    }[query.type];
    return { ...pageRows(rows.sort(order), query, ["clientCode", "clientName"]), type: query.type };
  });

  const segments = async (auth: AuthContext | null, filter: Filter, compare: boolean) => {
    const analysis = await analysisOf(auth);
    const { cube } = analysis;
    const q = resolve(analysis, filter);
    const segment = segmentOf(filter);
    const at = (month: number) =>
      memo(analysis, `segment:${segment}:${month}:${JSON.stringify(q)}`, () =>
        revenueBySegment(cube, { ...q, month, segment }),
      );
    return {
      segment,
      period: yearMonthOf(q.to),
      rows: segmentRows(segment, at(q.to), compare ? at(q.from) : undefined),
    };
  };
  registerContract(app, deps, gridGeneralKpi, ({ auth, query }) => segments(auth, query, true));
  registerContract(app, deps, gridSpecificKpi, ({ auth, query }) => segments(auth, query, true));
  registerContract(app, deps, specificDonutChart, ({ auth, query }) => segments(auth, query, false));
  registerContract(app, deps, chartRevenueBySegment, ({ auth, body }) =>
    segments(auth, { ...body, showAdhoc: body.showAdhoc === true }, false),
  );

  registerContract(app, deps, comparisonKpiChart, async ({ auth, query }) => {
    const result = await segments(auth, query, true);
    return {
      periodFrom: yearMonthOf(resolve(await analysisOf(auth), query).from),
      periodTo: result.period,
      rows: result.rows.map((r) => ({
        key: r.key,
        label: r.label,
        fromCents: r.valueFromCents ?? 0,
        toCents: r.valueCents,
      })),
    };
  });

  registerContract(app, deps, powerfulBar, async ({ auth, query }) => {
    const analysis = await analysisOf(auth);
    const q = resolve(analysis, query);
    return {
      periodFrom: yearMonthOf(q.from),
      periodTo: yearMonthOf(q.to),
      byType: byTypeCents(full(analysis, q).byType),
    };
  });

  registerContract(app, deps, varianceBars, async ({ auth, query }) => {
    const analysis = await analysisOf(auth);
    const { cube } = analysis;
    const q = resolve(analysis, query);
    const rows = full(analysis, q)
      .contributions.filter((c) => (!q.varType || c.type === q.varType) && (!q.sign || c.sign === q.sign))
      .map((c) => ({
        type: c.type,
        sign: c.sign,
        clientID: c.clientId,
        clientCode: cube.clients.get(c.clientId)?.code ?? "",
        clientName: cube.clients.get(c.clientId)?.name ?? "",
        stockItemID: c.itemId,
        itemCode: c.itemId === null ? null : (cube.items.get(c.itemId)?.code ?? ""),
        itemName: c.itemId === null ? null : (cube.items.get(c.itemId)?.name ?? ""),
        valueCents: c.value,
      }));
    const searchFields = ["clientCode", "clientName", "itemCode", "itemName"] as const;
    const totalCents = searchRows(rows, query.search, [...searchFields]).reduce(
      (s, r) => s + r.valueCents,
      0,
    );
    return { ...pageRows(rows, query, [...searchFields]), totals: { valueCents: totalCents } };
  });

  const series = (analysis: Analysis, q: ResolvedFilter, periodTo: number, count: number) =>
    memo(analysis, `series:${periodTo}:${count}:${JSON.stringify(q)}`, () =>
      trend(analysis.cube, { ...q, periodTo, periodCount: count }),
    ).map(seriesPoint);

  registerContract(app, deps, simpleKpiChart, async ({ auth, query }) => {
    const analysis = await analysisOf(auth);
    const q = resolve(analysis, query);
    return { points: series(analysis, q, q.to, query.trendPeriodCount ?? 12) };
  });

  registerContract(app, deps, lineChart, async ({ auth, query }) => {
    const analysis = await analysisOf(auth);
    const q = resolve(analysis, query, { dateFrom: query.periodFrom, dateTo: query.periodTo });
    if (q.to < q.from) return { points: [] };
    return { points: series(analysis, q, q.to, Math.min(500, q.to - q.from + 1)) };
  });

  registerContract(app, deps, chartClientKpis, async ({ auth, body }) => {
    const analysis = await analysisOf(auth);
    const { cube } = analysis;
    const q = resolve(analysis, { ...body, showAdhoc: body.showAdhoc === true });
    const clientId = q.clientId ?? ranked(analysis, q, q.to)[0]?.clientId ?? 0;
    const own = { ...q, clientId };
    const k = kpisOf(analysis, own);
    const r = ranked(analysis, q, q.to).find((x) => x.clientId === clientId);
    return {
      clientID: clientId,
      clientCode: cube.clients.get(clientId)?.code ?? "",
      mrrCents: k.mrr,
      mrrFromCents: k.mrrFrom,
      rank: r?.rank ?? null,
      contribution: r?.contribution ?? null,
      trend: series(analysis, own, q.to, body.trendPeriodCount ?? 12),
    };
  });

  registerContract(app, deps, specificClientDetail, async ({ auth, query }) => {
    const analysis = await analysisOf(auth);
    const { cube } = analysis;
    const q = resolve(analysis, query);
    const client = cube.clients.get(q.clientId!);
    const result: VarianceResult = full(analysis, q);
    const r = ranked(analysis, q, q.to).find((x) => x.clientId === q.clientId);
    const span = activeSpans(analysis).get(q.clientId!);
    const owner = result.lines.find((l) => l.to !== 0)?.salespersonId ?? result.lines[0]?.salespersonId;
    return {
      clientID: q.clientId!,
      clientCode: client?.code ?? "",
      clientName: client?.name ?? "",
      salesperson: owner === undefined ? null : (cube.salespeople.get(owner)?.name ?? null),
      period: yearMonthOf(q.to),
      mrrCents: result.totalTo,
      mrrFromCents: result.totalFrom,
      rank: r?.rank ?? null,
      contribution: r?.contribution ?? null,
      firstPeriod: span ? yearMonthOf(span.first) : null,
      firstPeriodStartsTheData: span ? startsTheData(cube, q, span.first) : false,
      lastPeriod: span ? yearMonthOf(span.last) : null,
      services: result.lines.map((l) => ({
        stockItemID: l.itemId,
        itemCode: cube.items.get(l.itemId)?.code ?? "",
        itemName: cube.items.get(l.itemId)?.name ?? "",
        mrrCents: l.to,
        status: l.status,
      })),
    };
  });

  registerContract(app, deps, skuDetail, async ({ auth, query }) => {
    const analysis = await analysisOf(auth);
    const { cube } = analysis;
    const q = resolve(analysis, query);
    const item = cube.items.get(q.itemId!);
    const result = full(analysis, q);
    const clients = (side: "from" | "to") =>
      new Set(result.lines.filter((l) => l[side] > 0).map((l) => l.clientId)).size;
    return {
      stockItemID: q.itemId!,
      itemCode: item?.code ?? "",
      itemName: item?.name ?? "",
      stockType: item?.stockType ?? "",
      category: item?.category ?? "",
      period: yearMonthOf(q.to),
      mrrCents: result.totalTo,
      mrrFromCents: result.totalFrom,
      clients: clients("to"),
      clientsFrom: clients("from"),
    };
  });

  registerContract(app, deps, specificSalespersonDetail, async ({ auth, query }) => {
    const analysis = await analysisOf(auth);
    const { cube } = analysis;
    const q = resolve(analysis, { ...query, salespersonID: query.contactID });
    const result = full(analysis, q);
    return {
      salespersonID: q.salespersonId!,
      name: cube.salespeople.get(q.salespersonId!)?.name ?? "",
      periodFrom: yearMonthOf(q.from),
      periodTo: yearMonthOf(q.to),
      mrrCents: result.totalTo,
      mrrFromCents: result.totalFrom,
      clients: result.clientsActiveTo,
      byType: byTypeCents(result.byType),
      transferInCents: result.byType.Transfer.positive,
      transferOutCents: result.byType.Transfer.negative,
    };
  });

  registerContract(app, deps, tableInvoiceData, async ({ auth, query }) => {
    const analysis = await analysisOf(auth);
    const q = resolve(analysis, query);
    const organisationId = auth!.organisation.id;
    // The lines placed in a month from DateFrom to DateTo (docs/methodology.md, "Spreading"): dated
    // there, or with a service period that reaches into those months; of the record types compared.
    const first = `${yearMonthOf(Math.min(q.from, q.to))}-01`;
    const afterLast = `${yearMonthOf(Math.max(q.from, q.to) + 1)}-01`;
    const filter: LineTableFilter = {
      first,
      afterLast,
      recordTypes: [q.recordTypeFrom ?? "Actual", q.recordTypeTo ?? "Actual"],
      clientId: q.clientId,
      itemId: q.itemId,
      salespersonId: q.salespersonId,
      stockType: q.stockType,
      search: query.search || undefined,
    };
    // The lines behind the figures: what the exclusion lists leave out of them is not listed.
    const lines: LineTableFilter = {
      ...filter,
      excludedClientIds: q.excludedClientIds,
      excludedItemIds: q.excludedItemIds,
    };
    const rows = await invoiceLinePage(
      deps.db,
      organisationId,
      {
        ...lines,
        sortBy: query.sortBy,
        sortDir: query.sortDir === "asc" ? "asc" : "desc",
        startRow: query.startRow,
        rowLimit: query.rowLimit,
      },
      analysis.cube,
    );
    // One count a view and data version, shared by its pages, its orders and whoever else asks for
    // it (docs/storage.md, "Level 4's page"); the exclusions are the analysis's own.
    const { rowCount, amountCents, costCents } = await memoQuery(
      analysis,
      `invoice-lines:${JSON.stringify(filter)}`,
      () => countInvoiceLines(deps.db, organisationId, lines),
    );
    return {
      rows,
      rowCount,
      startRow: query.startRow,
      totals: { amountCents, costCents },
    };
  });
}
