/**
 * Problems of open job files (`*.tp.toml`) in the Problems panel and as squiggles, kept up to date
 * while the user types: one check per document ~200 ms after its last change (each document has its
 * own timer), at once when a document opens, cleared when it closes. Part of the lazily loaded
 * dist/jobFiles.js (see jobFileSetup.ts): the checker needs the TOML parser.
 */
import * as vscode from 'vscode';
import { checkJobFile, type JobFileProblem } from '../../../model/jobFile';

const DIAGNOSTIC_SOURCE = 'TensorPool';
const DEBOUNCE_MS = 200;

function toDiagnostic(p: JobFileProblem): vscode.Diagnostic {
  const range = new vscode.Range(
    p.range.start.line,
    p.range.start.character,
    p.range.end.line,
    p.range.end.character,
  );
  const severity =
    p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning;
  const d = new vscode.Diagnostic(range, p.message, severity);
  d.source = DIAGNOSTIC_SOURCE;
  d.code = p.code;
  return d;
}

export class JobFileDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection('tensorpool-job');
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  /** A document's problems changed (the lenses show their count). */
  readonly onDidChange = this.changed.event;

  constructor(private readonly delayMs = DEBOUNCE_MS) {}

  /** Check now (a document just opened, or the debounce ran out). */
  check(document: vscode.TextDocument): void {
    this.cancel(document.uri);
    if (document.isClosed) return;
    this.collection.set(document.uri, checkJobFile(document.getText()).map(toDiagnostic));
    this.changed.fire(document.uri);
  }

  /** Check once the user has stopped typing in this document for a moment. */
  schedule(document: vscode.TextDocument): void {
    this.cancel(document.uri);
    const key = document.uri.toString();
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        this.check(document);
      }, this.delayMs),
    );
  }

  /** The document closed (or stopped being a job file): forget its problems. */
  clear(uri: vscode.Uri): void {
    this.cancel(uri);
    if (!this.collection.has(uri)) return;
    this.collection.delete(uri);
    this.changed.fire(uri);
  }

  /** Errors and warnings currently shown for the document. */
  counts(uri: vscode.Uri): { errors: number; warnings: number } {
    const all = this.collection.get(uri) ?? [];
    const errors = all.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length;
    return { errors, warnings: all.length - errors };
  }

  private cancel(uri: vscode.Uri): void {
    const key = uri.toString();
    const timer = this.timers.get(key);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.timers.delete(key);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.collection.dispose();
    this.changed.dispose();
  }
}
