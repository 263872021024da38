/** Browsers refuse canvases beyond this size in either direction. */
export const screenshotCanvasLimit = 16384;

/**
 * The scale of a screenshot: sharp on high-density screens (at least 2x), but never a canvas larger
 * than 16384 pixels either way.
 */
export function screenshotScale(width: number, height: number, devicePixelRatio = 1): number {
  const wanted = Math.max(2, devicePixelRatio);
  const limit = Math.min(
    screenshotCanvasLimit / Math.max(1, width),
    screenshotCanvasLimit / Math.max(1, height),
  );
  return Math.min(wanted, limit);
}

const twoDigits = (n: number) => String(n).padStart(2, "0");

/** 'Sep 2026 - Oct 2026 Waterfall 2026-11-23 21-40-05.png': the periods, the heading, a timestamp. */
export function screenshotFileName(periods: string, heading: string, at: Date): string {
  const stamp = `${at.getFullYear()}-${twoDigits(at.getMonth() + 1)}-${twoDigits(at.getDate())} ${twoDigits(at.getHours())}-${twoDigits(at.getMinutes())}-${twoDigits(at.getSeconds())}`;
  const name = `${periods} ${heading} ${stamp}`
    .replace(/[\\/:*?"<>|]+/g, "-")
    .replace(/\s+/g, " ")
    .trim();
  return `${name}.png`;
}

/**
 * A PNG of a card's node, downloaded (html-to-image, loaded only when asked). The card's own
 * buttons are left out of the picture.
 */
export async function downloadScreenshot(node: HTMLElement, fileName: string): Promise<void> {
  const { renderPng: toPng } = await import("./render-png");
  const { width, height } = node.getBoundingClientRect();
  const dataUrl = await toPng(node, {
    pixelRatio: screenshotScale(width, height, window.devicePixelRatio),
    backgroundColor: "#ffffff",
    skipAutoScale: true,
    filter: (element) => !(element instanceof HTMLElement && element.dataset.screenshot === "skip"),
  });
  const link = document.createElement("a");
  link.href = dataUrl;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
}
