import { invoiceColumns } from "../imports/invoice-columns";

/** A small deterministic random source (mulberry32), so the demo data is the same on every machine. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}

interface Item {
  code: string;
  name: string;
  stockType: "Subscription" | "Product" | "Hourly";
  category: "Recurring" | "Adhoc";
  price: number;
  costShare: number;
}

const plans: Item[] = [
  {
    code: "PLAN-STARTER",
    name: "Starter plan (per seat)",
    stockType: "Subscription",
    category: "Recurring",
    price: 29,
    costShare: 0.18,
  },
  {
    code: "PLAN-CORE",
    name: "Core plan (per seat)",
    stockType: "Subscription",
    category: "Recurring",
    price: 49,
    costShare: 0.2,
  },
  {
    code: "PLAN-PRO",
    name: "Pro plan (per seat)",
    stockType: "Subscription",
    category: "Recurring",
    price: 89,
    costShare: 0.2,
  },
  {
    code: "PLAN-ENT",
    name: "Enterprise plan (per seat)",
    stockType: "Subscription",
    category: "Recurring",
    price: 149,
    costShare: 0.22,
  },
];
const addOns: Item[] = [
  {
    code: "ADD-ANALYTICS",
    name: "Analytics add-on (per seat)",
    stockType: "Subscription",
    category: "Recurring",
    price: 15,
    costShare: 0.1,
  },
  {
    code: "ADD-SSO",
    name: "Single sign-on add-on",
    stockType: "Subscription",
    category: "Recurring",
    price: 200,
    costShare: 0.05,
  },
  {
    code: "ADD-API",
    name: "API access add-on",
    stockType: "Subscription",
    category: "Recurring",
    price: 120,
    costShare: 0.08,
  },
  {
    code: "ADD-STORAGE",
    name: "Extra storage (per 100 GB)",
    stockType: "Subscription",
    category: "Recurring",
    price: 25,
    costShare: 0.4,
  },
  {
    code: "ADD-SANDBOX",
    name: "Sandbox environment",
    stockType: "Subscription",
    category: "Recurring",
    price: 300,
    costShare: 0.3,
  },
  {
    code: "ADD-PRIORITY",
    name: "Priority support plan",
    stockType: "Subscription",
    category: "Recurring",
    price: 450,
    costShare: 0.35,
  },
];
const hourly: Item[] = [
  {
    code: "HRS-SUPPORT",
    name: "Support hours",
    stockType: "Hourly",
    category: "Recurring",
    price: 120,
    costShare: 0.55,
  },
  {
    code: "HRS-CONSULT",
    name: "Consulting hours",
    stockType: "Hourly",
    category: "Recurring",
    price: 180,
    costShare: 0.5,
  },
  {
    code: "HRS-TRAINING",
    name: "Training hours",
    stockType: "Hourly",
    category: "Recurring",
    price: 140,
    costShare: 0.45,
  },
];
const annual: Item = {
  code: "PLAN-PRO-ANNUAL",
  name: "Pro plan, annual prepaid (per seat)",
  stockType: "Subscription",
  category: "Recurring",
  price: 89 * 12 * 0.85,
  costShare: 0.2,
};
const hardware: Item[] = [
  {
    code: "HW-ROUTER",
    name: "Branch router",
    stockType: "Product",
    category: "Adhoc",
    price: 450,
    costShare: 0.72,
  },
  {
    code: "HW-TABLET",
    name: "Reception tablet",
    stockType: "Product",
    category: "Adhoc",
    price: 320,
    costShare: 0.7,
  },
  {
    code: "HW-SCANNER",
    name: "Badge scanner",
    stockType: "Product",
    category: "Adhoc",
    price: 180,
    costShare: 0.68,
  },
  {
    code: "SVC-ONBOARD",
    name: "Onboarding package",
    stockType: "Product",
    category: "Adhoc",
    price: 1500,
    costShare: 0.4,
  },
  {
    code: "SVC-MIGRATION",
    name: "Data migration",
    stockType: "Product",
    category: "Adhoc",
    price: 2400,
    costShare: 0.45,
  },
];

const salespeople = ["Amelia Hart", "Ben Okafor", "Chloe Nguyen", "Diego Ramos", "Ella Fischer"];
const nameParts = {
  first: [
    "Northwind",
    "Bluebird",
    "Summit",
    "Harbor",
    "Cedar",
    "Atlas",
    "Lumen",
    "Redwood",
    "Orbit",
    "Pioneer",
    "Granite",
    "Maple",
    "Silverline",
    "Beacon",
    "Falcon",
    "Juniper",
    "Meridian",
    "Quartz",
    "Riverbend",
    "Willow",
  ],
  second: [
    "Dental",
    "Logistics",
    "Properties",
    "Legal",
    "Health",
    "Foods",
    "Studios",
    "Engineering",
    "Retail",
    "Travel",
    "Fitness",
    "Partners",
    "Labs",
    "Energy",
    "Clinics",
    "Media",
  ],
  suffix: ["Ltd", "Inc", "Group", "Co", "LLC"],
};

/** The months of the demo: three years up to October 2026. */
export const demoMonths = { first: { year: 2023, month: 11 }, count: 36 } as const;

function monthOf(index: number) {
  const total = demoMonths.first.year * 12 + demoMonths.first.month - 1 + index;
  return { year: Math.floor(total / 12), month: (total % 12) + 1 };
}

const pad = (n: number) => String(n).padStart(2, "0");
/** A CSV field, quoted when it holds a comma, quote or line break. */
const field = (value: string | number) => {
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};
const money = (n: number) => n.toFixed(2);
function lastDay(year: number, month: number) {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * A realistic subscription business as an import CSV: about 320 clients over three years, with
 * new logos, churn, seat changes, two price rises, hourly usage, hand-overs between salespeople,
 * annual prepaid lines spread over their service year, and ad-hoc hardware and services.
 * Deterministic: the same text every time.
 */
export function generateDemoCsv(seed = 20261122): string {
  const r = random(seed);
  const rows: string[] = [invoiceColumns.join(",")];
  const clientCount = 320;
  for (let c = 1; c <= clientCount; c++) {
    const code = `C${String(c).padStart(4, "0")}`;
    const name = `${r.pick(nameParts.first)} ${r.pick(nameParts.second)} ${r.pick(nameParts.suffix)}`;
    // A third were customers before the window; the rest arrive through it.
    const start = r.chance(0.33) ? 0 : r.int(1, demoMonths.count - 1);
    const end = r.chance(0.35) ? r.int(start + 2, demoMonths.count + 10) : demoMonths.count + 10;
    let plan = r.pick(plans);
    let seats = r.int(2, 40);
    const prepaid = r.chance(0.1);
    const addOnSet = addOns.filter(() => r.chance(0.25));
    const usesHours = r.chance(0.4);
    let salesperson = r.pick(salespeople);
    const handOver = r.chance(0.12) ? r.int(start + 1, demoMonths.count) : -1;
    const handOverTo = r.pick(salespeople.filter((s) => s !== salesperson));

    for (let m = start; m < Math.min(end, demoMonths.count); m++) {
      const { year, month } = monthOf(m);
      if (m === handOver) salesperson = handOverTo;
      // Seats move a little; upgrades now and then.
      if (m > start && r.chance(0.18)) seats = Math.max(1, seats + r.int(-3, 5));
      if (m > start && r.chance(0.02)) plan = plans[Math.min(plans.indexOf(plan) + 1, plans.length - 1)]!;
      const rise = (m >= 12 ? 1.05 : 1) * (m >= 24 ? 1.07 : 1);
      const invoice = `INV-${year}${pad(month)}-${code}`;
      const date = `${year}-${pad(month)}-01`;
      let line = 0;
      const push = (
        item: Item,
        quantity: number,
        unitPrice: number,
        extra: { from?: string; to?: string } = {},
      ) => {
        const amount = Math.round(quantity * unitPrice * 100) / 100;
        const cost = Math.round(amount * item.costShare * 100) / 100;
        rows.push(
          [
            date,
            invoice,
            ++line,
            code,
            name,
            item.code,
            item.name,
            item.stockType,
            quantity,
            unitPrice.toFixed(4),
            money(amount),
            money(cost),
            salesperson,
            extra.from ?? "",
            extra.to ?? "",
            "Actual",
            item.category,
          ]
            .map(field)
            .join(","),
        );
      };
      if (prepaid) {
        if ((m - start) % 12 === 0) {
          const to = monthOf(m + 11);
          push(annual, seats, Math.round(annual.price * rise * 100) / 100, {
            from: date,
            to: `${to.year}-${pad(to.month)}-${lastDay(to.year, to.month)}`,
          });
        }
      } else {
        push(plan, seats, Math.round(plan.price * rise * 100) / 100);
      }
      for (const addOn of addOnSet) {
        const perSeat = addOn.code === "ADD-ANALYTICS";
        const quantity = perSeat ? seats : addOn.code === "ADD-STORAGE" ? r.int(1, 6) : 1;
        push(addOn, quantity, Math.round(addOn.price * rise * 100) / 100);
      }
      if (usesHours && r.chance(0.7)) {
        const item = r.pick(hourly);
        push(item, r.int(1, 24) / 2, item.price);
      }
      if (m === start && r.chance(0.5)) push(hardware[3]!, 1, hardware[3]!.price);
      if (r.chance(0.04)) {
        const item = r.pick(hardware);
        push(item, r.int(1, 4), item.price);
      }
    }
  }
  return `${rows.join("\n")}\n`;
}
