import { shownTrend, trendArrows, trendWords } from "./format";

/**
 * A change with its direction said three ways: the sign of the number, an arrow, and the status
 * colour (green up, red down; never the colour alone). `inverse` is for measures where down is
 * good (none on level 1 yet, but churn-like cards need it).
 */
export function Change({
  value,
  text,
  inverse = false,
  className = "",
}: {
  /** The signed change, deciding direction and colour. */
  value: number | null | undefined;
  /** The change as written (signed). */
  text: string;
  inverse?: boolean;
  className?: string;
}) {
  const trend = shownTrend(value, text);
  const tone = trend === "flat" ? "flat" : (trend === "up") !== inverse ? "good" : "bad";
  return (
    <span className={`change change--${tone} ${className}`.trim()}>
      <span aria-hidden="true" className="change__arrow">
        {trendArrows[trend]}
      </span>
      <span className="visually-hidden">{trendWords[trend]} </span>
      {text}
    </span>
  );
}
