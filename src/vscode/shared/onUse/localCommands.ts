/**
 * Commands the service asks us to run on this machine while a job is pushed (the upload of the project
 * files) or its outputs pulled. That is code execution on the user's machine, so: never in an untrusted
 * workspace; never through a shell (a command that needs one is refused: model/shellWords.ts); shown and
 * asked first, and what is shown is exactly what runs (its words, with every space and line break
 * visible). Only an rsync or scp of the shape the extension understands (model/transferCommand.ts: between
 * the folder and a node of the job's cluster, with our ssh in place of whatever remote shell it named) may
 * be allowed for good (Run and Don't Ask Again for This Workspace); anything else is asked about every
 * time. Each runs in its own process group, ended with the push or pull (cancel, socket closed) and at the
 * window's end (dispose). Output is shown in the job's terminal and kept bounded for command_result.
 */
import type { ChildProcess } from 'node:child_process';
import { realpathSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hiddenCharacter } from '../../../model/shownText';
import { splitShellWords, visibleWhitespace } from '../../../model/shellWords';
import { formatCommand } from '../../../model/sshCommand';
import { readTransfer, type TransferNode } from '../../../model/transferCommand';
import type { Prompter } from '../../../wizards/prompter';
import type { HostSeams } from '../hostSeams';
import type { Log } from '../log';
import type { WorkspaceState } from '../storedState';
import { tellUntrusted } from '../workspaceTrust';
import { endGroup, runArgv, type CommandOutput } from './commandProcess';

export type { CommandOutput } from './commandProcess';

export interface LocalCommandResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Not run: why (untrusted workspace, the user said no, cancelled), in English as the service is told. */
  readonly refused?: string;
}

export interface CommandScope {
  /** The nodes of the job's cluster as our ssh reaches them: the understood transfer's other side. */
  readonly nodes: readonly TransferNode[];
  /** Ends the command (and refuses it when it has not started): a cancelled push, a closed socket. */
  readonly signal?: AbortSignal;
}

type Refusal = 'untrusted' | 'declined' | 'unshowable' | 'shell' | 'cancelled';
/** Why a command was not run, as the service reads it (in the command's stderr) and the log says it. */
const REASON: Record<Refusal, string> = {
  /* eslint-disable tensorpool/l10n -- sent to the service in the command's stderr, and logged */
  untrusted: 'the workspace is not trusted',
  declined: 'the user chose not to run it',
  unshowable: 'it could not be shown to the user as it is (too long, or with characters that hide text)',
  shell: 'it needs a shell, and commands from the service never run through one',
  cancelled: 'the submission or pull ended before it ran',
  /* eslint-enable tensorpool/l10n */
};

/** Longer than this, a command cannot be read in a dialog: it is refused, never run unseen. */
const MAX_SHOWN = 10_000;

export class LocalCommandRunner implements vscode.Disposable {
  private readonly running = new Set<ChildProcess>();
  private disposed = false;

  constructor(
    private readonly host: HostSeams,
    private readonly workspaceState: WorkspaceState,
    private readonly log: Log,
    /** The prompter in force (scripted in tests), for the consent dialog. */
    private readonly prompts: () => Prompter,
  ) {}

  async run(
    command: string,
    cwd: string,
    out: CommandOutput,
    scope: CommandScope,
  ): Promise<LocalCommandResult> {
    const decided = await this.consent(command, cwd, scope);
    if (typeof decided === 'string') return this.refuse(decided, command, out);
    const argv = decided;
    out.append(`\x1b[1m$ ${visibleWhitespace(formatCommand(argv))}\x1b[0m`);
    this.log.info(`Running a command the service sent (${argv[0]}), in ${cwd}`);
    return runArgv(argv, cwd, out, this.running, scope.signal);
  }

  /** End every command still running (the window closes): their whole process groups. */
  dispose(): void {
    this.disposed = true;
    for (const child of this.running) endGroup(child);
  }

  private refuse(refused: Refusal, command: string, out: CommandOutput): LocalCommandResult {
    const shown = visibleWhitespace(command);
    out.note(
      refused === 'untrusted'
        ? vscode.l10n.t('Not run (the workspace is not trusted): {0}', shown)
        : refused === 'declined'
          ? vscode.l10n.t('Not run (the user chose not to run it): {0}', shown)
          : refused === 'shell'
            ? vscode.l10n.t(
                'Not run: the command the service sent needs a shell, and commands from the service never run through one: {0}',
                shown,
              )
            : refused === 'cancelled'
              ? vscode.l10n.t('Not run (the submission or pull ended first): {0}', shown)
              : vscode.l10n.t(
                  'Not run: the command the service sent ({0} characters) is too long to show or has characters that hide text.',
                  command.length,
                ),
    );
    const reason = REASON[refused];
    this.log.warn(`A command the service sent was not run (${reason}).`);
    return {
      exitCode: 126,
      stdout: '',
      // eslint-disable-next-line tensorpool/l10n -- sent to the service as the command's stderr
      stderr: `Not run on the user's machine: ${reason}.`,
      refused: reason,
    };
  }

  /** The argv to run when the command may run; else the reason it may not. */
  private async consent(command: string, cwd: string, scope: CommandScope): Promise<string[] | Refusal> {
    if (this.disposed || scope.signal?.aborted) return 'cancelled';
    if (!this.host.isTrusted()) {
      tellUntrusted(
        this.prompts(),
        this.log,
        'localCommands',
        vscode.l10n.t('the command the service sent for this job was not run'),
      );
      return 'untrusted';
    }
    // What the user agrees to must be what they can read: nothing hidden, nothing too long to read.
    if (command.length > MAX_SHOWN || hiddenCharacter(command)) return 'unshowable';
    const split = splitShellWords(command);
    if (!split.ok) {
      this.log.warn(`A command the service sent has ${JSON.stringify(split.operator)} outside quotes.`);
      return 'shell';
    }
    if (split.words.length === 0) return 'unshowable';
    const transfer = readTransfer(split.words, {
      nodes: scope.nodes,
      insideFolder: (local) => insideFolder(cwd, local),
    });
    if (transfer.kind === 'other')
      this.log.info(`A command the service sent is asked about: ${transfer.why}.`);
    const argv = transfer.kind === 'transfer' ? [...transfer.argv] : [...split.words];
    if (transfer.kind === 'transfer' && this.workspaceState.get('tensorpool.localCommandsAllowed', false))
      return argv;
    const run = vscode.l10n.t('Run');
    const always = vscode.l10n.t("Run and Don't Ask Again for This Workspace");
    const shown = visibleWhitespace(formatCommand(argv));
    const answer = await this.prompts().confirm({
      message: vscode.l10n.t('TensorPool asks to run a command on this computer for this job'),
      detail:
        transfer.kind === 'transfer'
          ? vscode.l10n.t(
              "In {0}:\n\n{1}\n\nIt copies the job's files between this folder and node {2} of the job's cluster over the extension's own ssh. Run it?",
              cwd,
              shown,
              transfer.node.host,
            )
          : vscode.l10n.t(
              'In {0}:\n\n{1}\n\nThis is not an upload the extension recognises ({2}), so it is asked about every time. Run it?',
              cwd,
              shown,
              transfer.why,
            ),
      actions: transfer.kind === 'transfer' ? [run, always] : [run],
      modal: true,
      severity: 'warning',
    });
    if (this.disposed || scope.signal?.aborted) return 'cancelled';
    if (answer === always && transfer.kind === 'transfer')
      await this.workspaceState.update('tensorpool.localCommandsAllowed', true);
    return answer === run || answer === always ? argv : 'declined';
  }
}

/** Whether `local` (relative to `cwd`) stays inside `cwd`, the links of what exists resolved. */
function insideFolder(cwd: string, local: string): boolean {
  const real = (p: string): string => {
    try {
      return realpathSync(p);
    } catch {
      const parent = path.dirname(p);
      return parent === p ? p : path.join(real(parent), path.basename(p));
    }
  };
  const root = real(cwd);
  const target = real(path.resolve(cwd, local));
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}
