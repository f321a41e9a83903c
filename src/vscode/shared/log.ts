/**
 * The TensorPool output channel (a LogOutputChannel, so users pick the level with "Set Log Level").
 * Every line is redacted: registered secrets and credential-looking patterns never reach it.
 */
import * as vscode from 'vscode';
import type { LogLevel } from '../../api/log';
import { type SecretRegistry } from '../../api/redact';

const TAIL = 500;

export class Log implements vscode.Disposable {
  readonly channel: vscode.LogOutputChannel;
  /** The last lines written (already redacted), for the support view and the secrets tests. */
  readonly tail: string[] = [];

  constructor(readonly secrets: SecretRegistry) {
    this.channel = vscode.window.createOutputChannel('TensorPool', { log: true });
  }

  write = (level: LogLevel, message: string): void => {
    const text = this.secrets.redact(message);
    this.tail.push(`[${level}] ${text}`);
    if (this.tail.length > TAIL) this.tail.shift();
    switch (level) {
      case 'trace':
        this.channel.trace(text);
        break;
      case 'debug':
        this.channel.debug(text);
        break;
      case 'info':
        this.channel.info(text);
        break;
      case 'warn':
        this.channel.warn(text);
        break;
      case 'error':
        this.channel.error(text);
        break;
    }
  };

  /** The least severe level the channel shows now (the user's "Set Log Level"). */
  level = (): LogLevel | 'off' => {
    switch (this.channel.logLevel) {
      case vscode.LogLevel.Off:
        return 'off';
      case vscode.LogLevel.Trace:
        return 'trace';
      case vscode.LogLevel.Debug:
        return 'debug';
      case vscode.LogLevel.Info:
        return 'info';
      case vscode.LogLevel.Warning:
        return 'warn';
      default:
        return 'error';
    }
  };

  info(message: string): void {
    this.write('info', message);
  }
  warn(message: string): void {
    this.write('warn', message);
  }
  error(message: string): void {
    this.write('error', message);
  }

  dispose(): void {
    this.channel.dispose();
  }
}
