/**
 * The test API's record of what job terminals receive (outside production only): the most recent
 * MAX_CHARS characters, so a long log never grows it without bound. No `vscode` import.
 */
import { BoundedText } from '../../model/boundedText';

const MAX_CHARS = 2_000_000;

export class TerminalTapRecord {
  private readonly chunks = new BoundedText(MAX_CHARS);

  readonly record = (_terminal: string, text: string): void => {
    this.chunks.push(text.endsWith('\n') ? text : `${text}\n`);
  };

  text(): string {
    return this.chunks.text();
  }
}
