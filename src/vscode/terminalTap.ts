/**
 * The test API's record of what job terminals receive (outside production only): the most recent
 * MAX_CHARS characters, so a long log never grows it without bound. No `vscode` import.
 */
const MAX_CHARS = 2_000_000;

export class TerminalTapRecord {
  private chunks: string[] = [];
  private chars = 0;

  readonly record = (_terminal: string, text: string): void => {
    const chunk = text.endsWith('\n') ? text : `${text}\n`;
    this.chunks.push(chunk);
    this.chars += chunk.length;
    while (this.chars > MAX_CHARS && this.chunks.length > 1) this.chars -= this.chunks.shift()!.length;
  };

  text(): string {
    return this.chunks.join('');
  }
}
