/**
 * Commands the service asks us to run on this machine while a job is pushed (typically the upload of the
 * project files). That is code execution on the user's machine, so: never in an untrusted workspace;
 * shown and asked first (Run / Run and Don't Ask Again for This Workspace / Cancel); run in the job
 * file's folder; the command and its output shown in the job's terminal; output kept bounded for the
 * command_result message the protocol sends back.
 */
import { spawn } from 'node:child_process';
import * as vscode from 'vscode';
import { missingProgram, missingProgramMessage } from '../../../model/sshFailure';
import { hiddenCharacter } from '../../../model/shownText';
import type { Prompter } from '../../../wizards/prompter';
import type { HostSeams } from '../hostSeams';
import type { Log } from '../log';
import type { WorkspaceState } from '../storedState';
import { tellUntrusted } from '../workspaceTrust';

export interface LocalCommandResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Not run: why (untrusted workspace, the user said no, cancelled), in English as the service is told. */
  readonly refused?: string;
}

/** Where the command's output is shown live (the job terminal). */
export interface CommandOutput {
  append(text: string): void;
  note(text: string): void;
}

const MAX_KEPT = 256 * 1024;

type Refusal = 'untrusted' | 'declined' | 'unshowable';
/** Why a command was not run, as the service reads it (in the command's stderr) and the log says it. */
const REASON: Record<Refusal, string> = {
  // eslint-disable-next-line tensorpool/l10n -- sent to the service in the command's stderr, and logged
  untrusted: 'the workspace is not trusted',
  // eslint-disable-next-line tensorpool/l10n -- sent to the service in the command's stderr, and logged
  declined: 'the user chose not to run it',
  // eslint-disable-next-line tensorpool/l10n -- sent to the service in the command's stderr, and logged
  unshowable: 'it could not be shown to the user as it is (too long, or with characters that hide text)',
};

/** Longer than this, a command cannot be read in a dialog: it is refused, never run unseen. */
const MAX_SHOWN = 10_000;

export class LocalCommandRunner {
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
    signal?: AbortSignal,
  ): Promise<LocalCommandResult> {
    const refused = await this.consent(command, cwd);
    if (refused) {
      out.note(
        refused === 'untrusted'
          ? vscode.l10n.t('Not run (the workspace is not trusted): {0}', command)
          : refused === 'declined'
            ? vscode.l10n.t('Not run (the user chose not to run it): {0}', command)
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
    out.append(`\x1b[1m$ ${command}\x1b[0m`);
    this.log.info(`Running a command the service sent, in ${cwd}`);
    return runShell(command, cwd, out, signal);
  }

  /** Undefined when the command may run; else the reason it may not. */
  private async consent(command: string, cwd: string): Promise<Refusal | undefined> {
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
    if (this.workspaceState.get('tensorpool.localCommandsAllowed', false)) return undefined;
    const run = vscode.l10n.t('Run');
    const always = vscode.l10n.t("Run and Don't Ask Again for This Workspace");
    const answer = await this.prompts().confirm({
      message: vscode.l10n.t('TensorPool asks to run a command on this computer for this job'),
      detail: vscode.l10n.t("In {0}:\n\n{1}\n\nIt typically uploads the job's files. Run it?", cwd, command),
      actions: [run, always],
      modal: true,
      severity: 'warning',
    });
    if (answer === always) await this.workspaceState.update('tensorpool.localCommandsAllowed', true);
    return answer ? undefined : 'declined';
  }
}

function runShell(
  command: string,
  cwd: string,
  out: CommandOutput,
  signal: AbortSignal | undefined,
): Promise<LocalCommandResult> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    const keep = (kept: string, chunk: string) =>
      kept.length >= MAX_KEPT ? kept : (kept + chunk).slice(0, MAX_KEPT);
    const env = withoutCredentials(process.env);
    const child = spawn(command, { cwd, env, shell: true, signal, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout = keep(stdout, d);
      out.append(d);
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr = keep(stderr, d);
      out.append(`\x1b[31m${d}\x1b[0m`);
    });
    child.on('error', (e) => {
      const reason = signal?.aborted ? 'cancelled' : e.message;
      resolve({ exitCode: 127, stdout, stderr: stderr || reason });
    });
    child.on('close', (code, sig) => {
      const exitCode = code ?? (sig ? 128 : 1);
      if (exitCode !== 0) out.note(vscode.l10n.t('The command ended with exit code {0}.', exitCode));
      // `rsync: command not found` (127) and the like: say what to install, for this platform.
      const missing = exitCode === 127 || exitCode === 9009 ? missingProgram(stderr) : undefined;
      const hint = missing ? missingProgramMessage(missing, process.platform) : undefined;
      if (hint) out.note(hint);
      resolve({ exitCode, stdout, stderr: hint ? `${stderr.trimEnd()}\n${hint}` : stderr });
    });
  });
}

/** The environment for a command the service sent: no TensorPool credential variable (TENSORPOOL_KEY,
 *  TENSORPOOL_API_KEY, …) reaches it, nor the rsync and ssh it starts. */
function withoutCredentials(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !/^TENSORPOOL_.*(KEY|TOKEN)/i.test(name)));
}
