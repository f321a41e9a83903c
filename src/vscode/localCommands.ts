/**
 * Commands the service asks us to run on this machine while a job is pushed (typically the upload of the
 * project files). That is code execution on the user's machine, so: never in an untrusted workspace;
 * shown and asked first (Run / Run and Don't Ask Again for This Workspace / Cancel); run in the job
 * file's folder; the command and its output shown in the job's terminal; output kept bounded for the
 * command_result message the protocol sends back.
 */
import { spawn } from 'node:child_process';
import type { Prompter } from '../wizards/prompter';
import type { HostSeams } from './hostSeams';
import type { Log } from './log';
import type { WorkspaceState } from './storedState';
import { tellUntrusted } from './workspaceTrust';

export interface LocalCommandResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  /** Not run: why (untrusted workspace, the user said no, cancelled). */
  readonly refused?: string;
}

/** Where the command's output is shown live (the job terminal). */
export interface CommandOutput {
  append(text: string): void;
  note(text: string): void;
}

const MAX_KEPT = 256 * 1024;
export const RUN = 'Run';
export const RUN_ALWAYS = "Run and Don't Ask Again for This Workspace";

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
      out.note(`Not run (${refused}): ${command}`);
      this.log.warn(`A command the service sent was not run (${refused}).`);
      return { exitCode: 126, stdout: '', stderr: `Not run on the user's machine: ${refused}.`, refused };
    }
    out.append(`\x1b[1m$ ${command}\x1b[0m`);
    this.log.info(`Running a command the service sent, in ${cwd}`);
    return runShell(command, cwd, out, signal);
  }

  /** Undefined when the command may run; else the reason it may not. */
  private async consent(command: string, cwd: string): Promise<string | undefined> {
    if (!this.host.isTrusted()) {
      tellUntrusted(
        this.prompts(),
        this.log,
        'localCommands',
        'the command the service sent for this job was not run',
      );
      return 'the workspace is not trusted';
    }
    if (this.workspaceState.get('tensorpool.localCommandsAllowed', false)) return undefined;
    const answer = await this.prompts().confirm({
      message: 'TensorPool asks to run a command on this computer for this job',
      detail: `In ${cwd}:\n\n${command}\n\nIt typically uploads the job's files. Run it?`,
      actions: [RUN, RUN_ALWAYS],
      modal: true,
      severity: 'warning',
    });
    if (answer === RUN_ALWAYS) await this.workspaceState.update('tensorpool.localCommandsAllowed', true);
    return answer ? undefined : 'the user chose not to run it';
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
    const child = spawn(command, { cwd, shell: true, signal, stdio: ['ignore', 'pipe', 'pipe'] });
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
      if (exitCode !== 0) out.note(`The command ended with exit code ${exitCode}.`);
      resolve({ exitCode, stdout, stderr });
    });
  });
}
