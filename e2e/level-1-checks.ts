import type { Page } from "playwright-core";
import { expect } from "vitest";
import { card, chartTable, clientList, parseMoney, shownDollars, type VarianceJson } from "./workspace";

/** What the waterfall calls each type and sign (the analyst's words, apps/web variance-labels.ts). */
const stepWords: Record<string, Record<"positive" | "negative", string>> = {
  Client: { positive: "New clients", negative: "Lost clients" },
  Service: { positive: "Services added", negative: "Services removed" },
  Price: { positive: "Price increases", negative: "Price decreases" },
  Volume: { positive: "Volume up", negative: "Volume down" },
  Usage: { positive: "Usage up", negative: "Usage down" },
  Transfer: { positive: "Transfers in", negative: "Transfers out" },
};

const monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** 'Sep 2026' → '2026-09'. */
const yearMonth = (shown: string) => {
  const [name, year] = shown.trim().split(" ");
  return `${year}-${String(monthNames.indexOf(name!) + 1).padStart(2, "0")}`;
};

/** The two months level 1 compares, read from its subtitle. */
export async function comparedMonths(page: Page) {
  const strong = await page.locator(".page__subtitle strong").allTextContents();
  return {
    from: yearMonth(strong[0]!),
    to: yearMonth(strong[1]!),
    fromShown: strong[0]!,
    toShown: strong[1]!,
  };
}

/**
 * Level 1 against `varia variance --json` for the same months: MRR and its change, every waterfall
 * step, the acquired and lost clients, to the cent after the cards' rounding to whole units.
 */
export async function expectLevel1Matches(page: Page, cli: VarianceJson) {
  const mrr = card(page, "mrr");
  expect(parseMoney(await mrr.locator(".kpi__value").innerText())).toBe(shownDollars(cli.totalTo));
  const changeCents = Math.round(cli.totalTo * 100) - Math.round(cli.totalFrom * 100);
  expect(parseMoney(await mrr.locator(".kpi__change").innerText())).toBe(shownDollars(changeCents / 100));
  expect(parseMoney(await mrr.locator(".kpi__from").innerText())).toBe(shownDollars(cli.totalFrom));

  const steps = await chartTable(card(page, "waterfall").locator("figure"));
  const { fromShown, toShown } = await comparedMonths(page);
  expect(parseMoney(steps.get(fromShown)![0]!)).toBe(shownDollars(cli.totalFrom));
  expect(parseMoney(steps.get(toShown)![0]!)).toBe(shownDollars(cli.totalTo));
  const expectedSteps = Object.entries(cli.byType).flatMap(([type, sums]) =>
    (["positive", "negative"] as const)
      .filter((side) => sums[side] !== 0)
      .map((side) => [stepWords[type]![side], shownDollars(sums[side])] as const),
  );
  const shownSteps = [...steps]
    .filter(([label]) => label !== fromShown && label !== toShown)
    .map(([label, cells]) => [label, parseMoney(cells[0]!)] as const);
  expect(shownSteps).toEqual(expectedSteps);

  // The lists, in full: the expanded card shows every client.
  for (const [id, expected] of [
    ["acquiredClients", cli.acquiredClients],
    ["lostClients", cli.lostClients],
  ] as const) {
    if (expected.length === 0) {
      await expect.poll(() => card(page, id).getAttribute("data-card-state")).toBe("empty");
      await expect.poll(() => card(page, id).innerText()).toContain("No information available to show.");
      continue;
    }
    await card(page, id)
      .getByRole("button", { name: /^Expand/ })
      .click();
    const dialog = page.getByRole("dialog");
    await dialog.locator("tbody tr").first().waitFor();
    const shown = await clientList(dialog);
    expect(shown).toEqual(new Map(expected.map((c) => [c.clientCode, shownDollars(c.value)])));
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
  }
}
