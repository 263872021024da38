import type { CharacterPose } from "@varia/machines";

/** The animated character of the login screen (docs/behaviour.md#login). */
export function Character({ pose }: { pose: CharacterPose }) {
  return (
    <svg className={`character character--${pose}`} viewBox="0 0 120 120" aria-hidden="true" data-pose={pose}>
      <circle cx="60" cy="64" r="40" className="character__head" />
      <g className="character__eyes">
        <circle cx="46" cy="58" r="5" />
        <circle cx="74" cy="58" r="5" />
      </g>
      <path d="M46 80 Q60 90 74 80" className="character__mouth" />
      <g className="character__hands">
        <ellipse cx="46" cy="60" rx="14" ry="9" />
        <ellipse cx="74" cy="60" rx="14" ry="9" />
      </g>
    </svg>
  );
}
