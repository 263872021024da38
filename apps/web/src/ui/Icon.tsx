/**
 * The app's icons: inline SVG paths on a 24-unit grid. Sizes come from a fixed list and rotation is
 * 90, 180 or 270 only; an unknown name is logged and draws nothing.
 */
const paths = {
  expand: "M4 10V4h6M20 14v6h-6M4 4l6 6M20 20l-6-6",
  shrink: "M10 4v6H4M14 20v-6h6M4 4l6 6M20 20l-6-6",
  close: "M6 6l12 12M18 6L6 18",
  download: "M12 4v11M7 10l5 5 5-5M5 20h14",
  filter: "M4 5h16l-6 8v5l-4 2v-7z",
  search: "M11 4a7 7 0 1 1 0 14 7 7 0 0 1 0-14zM20 20l-4-4",
  menu: "M4 7h16M4 12h16M4 17h16",
  help: "M12 3a9 9 0 1 1 0 18 9 9 0 0 1 0-18zM9.5 9.5a2.5 2.5 0 1 1 3.5 2.3c-.7.3-1 .9-1 1.7M12 17h.01",
  chevron: "M9 6l6 6-6 6",
  more: "M5 12h.01M12 12h.01M19 12h.01",
  user: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 20c1.5-3.5 4.5-5 8-5s6.5 1.5 8 5",
  dashboard: "M4 4h7v9H4zM13 4h7v5h-7zM13 11h7v9h-7zM4 15h7v5H4z",
  forecast: "M4 19l5-6 4 3 7-9M15 7h5v5",
  reports: "M6 3h9l4 4v14H6zM9 12h6M9 16h6M9 8h3",
  export: "M12 16V4M7 9l5-5 5 5M5 20h14",
  users:
    "M9 11a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7zM2.5 20c1-3 3.5-4.5 6.5-4.5s5.5 1.5 6.5 4.5M16 4.5a3.5 3.5 0 0 1 0 6.5M18 15.5c1.7.6 3 2 3.5 4.5",
  roles: "M12 3l8 3v6c0 4.5-3.5 8-8 9-4.5-1-8-4.5-8-9V6z",
  lists: "M8 6h12M8 12h12M8 18h12M4 6h.01M4 12h.01M4 18h.01",
  backups:
    "M4 7c0-1.7 3.6-3 8-3s8 1.3 8 3-3.6 3-8 3-8-1.3-8-3zM4 7v10c0 1.7 3.6 3 8 3s8-1.3 8-3V7M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3",
  organisation: "M4 21V5l8-3 8 3v16M9 21v-5h6v5M8 8h.01M12 8h.01M16 8h.01M8 12h.01M12 12h.01M16 12h.01",
  integration: "M8 7V3M16 7V3M6 7h12v4a6 6 0 0 1-12 0zM12 17v4",
  settings:
    "M12 9a3 3 0 1 0 0 6 3 3 0 0 0 0-6zM19 12l2-1-1-3-2.2.3-1.6-1.6L16.5 4l-3-1-1 2h-1l-1-2-3 1 .3 2.2-1.6 1.6L4 7.5l-1 3 2 1v1l-2 1 1 3 2.2-.3 1.6 1.6L7.5 20l3 1 1-2h1l1 2 3-1-.3-2.2 1.6-1.6 2.2.3 1-3-2-1z",
  logout: "M15 4h4v16h-4M10 8l-4 4 4 4M6 12h10",
  map: "M9 4L3 6v14l6-2 6 2 6-2V4l-6 2-6-2zM9 4v14M15 6v14",
  up: "M12 19V5M6 11l6-6 6 6",
  play: "M7 4l13 8-13 8z",
} as const;

export type IconName = keyof typeof paths;
export const iconSizes = [12, 16, 20, 24, 32] as const;
export type IconSize = (typeof iconSizes)[number];

export function Icon({
  name,
  size = 16,
  rotate,
  className,
}: {
  name: IconName;
  size?: IconSize;
  rotate?: 90 | 180 | 270;
  className?: string;
}) {
  const d = paths[name];
  if (!d) {
    console.warn(`Missing icon '${name}'`);
    return null;
  }
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      className={className}
      style={rotate ? { transform: `rotate(${rotate}deg)` } : undefined}
    >
      <path d={d} />
    </svg>
  );
}
