/** Small pieces of tooltip text shared by the views: Markdown escaping and timestamps. */
import { exactTime, relativeTime } from '../../model/time';

/** Escape text for a MarkdownString (names and values come from the server). */
export function md(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

/** A timestamp for a tooltip: "3 minutes ago (Nov 23, 2026, 6:02:35 PM UTC)", local time zone. */
export function tooltipTime(text: string, now = Date.now()): string {
  const relative = relativeTime(text, now);
  const exact = exactTime(text);
  return relative && exact ? `${relative} (${exact})` : text;
}
