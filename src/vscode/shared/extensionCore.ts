/**
 * What every feature uses, made once by activate() before any feature: the log (with the secrets it
 * hides), the store, stored state, the host seams (home folder, clock), the API service, context keys,
 * the lists' text documents and the prompter. Each feature's setup takes this and registers its own commands and views.
 */
import * as vscode from 'vscode';
import { SecretRegistry } from '../../api/redact';
import type { Prompter } from '../../wizards/prompter';
import { ApiService } from './apiService';
import { Commands } from './commands';
import { ContextKeys } from './contextKeys';
import { HostSeams } from './hostSeams';
import { ListingDocuments } from './listingDocuments';
import { Log } from './log';
import { Store } from './store';
import { StoredState, WorkspaceState } from './storedState';
import { tickStateStep } from './walkthrough';

export interface Core {
  readonly context: vscode.ExtensionContext;
  readonly secrets: SecretRegistry;
  readonly log: Log;
  readonly store: Store;
  readonly state: StoredState;
  readonly workspaceState: WorkspaceState;
  readonly host: HostSeams;
  readonly api: ApiService;
  readonly contextKeys: ContextKeys;
  /** The lists' text-only answers as documents (`tensorpool:/Cluster list.txt`). */
  readonly listings: ListingDocuments;
  readonly extensionVersion: string;
  /** The prompter the wizards use: the real one (dist/actions.js, made on the first prompt) unless a test
   *  set a scripted one (setPrompter). */
  readonly prompts: () => Prompter;
  setPrompter(prompter: Prompter | undefined): void;
  /** An installed extension: no test surface, no timing marks, no terminal tap. */
  readonly production: boolean;
  /** Disposed with the extension, in the order given (activate() adds the log and the store last). */
  own(...disposables: vscode.Disposable[]): void;
}

/** `quickInputPrompter` makes the real prompter (in the actions bundle, loaded by the composition root). */
export function createCore(context: vscode.ExtensionContext, quickInputPrompter: () => Prompter): Core {
  const secrets = new SecretRegistry();
  const log = new Log(secrets);
  const store = new Store();
  const extensionVersion = (context.extension.packageJSON as { version?: string }).version ?? '0.0.0';
  const listings = new ListingDocuments();
  // The output channel is the core's: Show Log is its command.
  context.subscriptions.push(
    vscode.commands.registerCommand(Commands.showLog, () => log.channel.show()),
    listings,
    vscode.workspace.registerTextDocumentContentProvider('tensorpool', listings),
  );
  let real: Prompter | undefined;
  let scripted: Prompter | undefined;
  return {
    context,
    secrets,
    log,
    store,
    state: new StoredState(context.globalState),
    workspaceState: new WorkspaceState(context.workspaceState),
    host: new HostSeams(),
    api: new ApiService({ extensionVersion, secrets, log }),
    contextKeys: new ContextKeys(
      (key, value) => vscode.commands.executeCommand('setContext', key, value),
      tickStateStep,
    ),
    listings,
    extensionVersion,
    prompts: () => scripted ?? (real ??= quickInputPrompter()),
    setPrompter: (p) => {
      scripted = p;
    },
    production: context.extensionMode === vscode.ExtensionMode.Production,
    own: (...disposables) => context.subscriptions.push(...disposables),
  };
}
