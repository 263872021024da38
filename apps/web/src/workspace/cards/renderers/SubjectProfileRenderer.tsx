import { useDrawnOnMount } from "../Card";
import type { CardRenderProps } from "../card-types";
import { type Amount, writeAmount } from "./FigureRenderer";

/** Facts about a level-3 subject (its salesperson, since when, its services or clients). */
export interface SubjectProfileData {
  facts: { label: string; value: Amount }[];
}

export function SubjectProfileRenderer({ data, format }: CardRenderProps<SubjectProfileData>) {
  useDrawnOnMount();
  return (
    <dl className="profile-facts">
      {data.facts.map((f) => (
        <div key={f.label}>
          <dt>{f.label}</dt>
          <dd>{writeAmount(f.value, format)}</dd>
        </div>
      ))}
    </dl>
  );
}
