import { helpText } from "@varia/contracts";
import { createElement, type ReactNode, useEffect, useState } from "react";
import { api } from "../../api";

/** The tags help texts may use; anything else is shown as its text. */
const allowed = new Set(["p", "strong", "b", "em", "i", "ul", "ol", "li", "br", "code"]);

function toReact(node: Node, key: number): ReactNode {
  if (node.nodeType === Node.TEXT_NODE) return node.textContent;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const element = node as Element;
  const children = [...element.childNodes].map(toReact);
  const tag = element.tagName.toLowerCase();
  return allowed.has(tag)
    ? createElement(tag, { key }, ...children)
    : createElement("span", { key }, ...children);
}

/** Help text as elements: plain text, or the few tags of help texts (never raw HTML). */
export function helpContent(format: "html" | "text", content: string): ReactNode {
  if (format === "text") return <p>{content}</p>;
  const body = new DOMParser().parseFromString(content, "text/html").body;
  return [...body.childNodes].map(toReact);
}

type Loaded = { title: string; content: ReactNode } | "failed" | null;

/**
 * The help text of a card for the compared months, loaded when it is first shown; `title` in place of
 * the text's own when the card is named for the view ('Margin by segment').
 */
export function HelpText({
  helpKey,
  dateFrom,
  dateTo,
  title,
}: {
  helpKey: string;
  dateFrom: string | null;
  dateTo: string | null;
  title?: string | undefined;
}) {
  const [loaded, setLoaded] = useState<Loaded>(null);
  useEffect(() => {
    let live = true;
    const key = JSON.stringify({ name: helpKey, filterParams: { dateFrom, dateTo } });
    api
      .call(helpText, { query: { key } }, { cache: true })
      .then(
        (help) => live && setLoaded({ title: help.title, content: helpContent(help.format, help.content) }),
      )
      .catch(() => live && setLoaded("failed"));
    return () => {
      live = false;
    };
  }, [helpKey, dateFrom, dateTo]);
  if (loaded === null) return <p>Loading…</p>;
  if (loaded === "failed") return <p>No help is available for this card.</p>;
  return (
    <div className="help-text">
      <strong className="help-text__title">{title ?? loaded.title}</strong>
      {loaded.content}
    </div>
  );
}
