/**
 * The API token in the environment, under the names the official CLI and other tools use: TENSORPOOL_KEY
 * (the CLI's), else TENSORPOOL_API_KEY (tensorpool/tensorpool PR #4, a third-party MCP server). Pure: the
 * caller passes the environment; no vscode, no I/O.
 */

export const ENV_TOKEN_VARIABLES = ['TENSORPOOL_KEY', 'TENSORPOOL_API_KEY'] as const;

export interface EnvToken {
  readonly name: (typeof ENV_TOKEN_VARIABLES)[number];
  readonly value: string;
}

/** TENSORPOOL_KEY when it has a value (it wins when both are set), else TENSORPOOL_API_KEY; trimmed. */
export function tokenFromEnvironment(
  env: Readonly<Record<string, string | undefined>>,
): EnvToken | undefined {
  for (const name of ENV_TOKEN_VARIABLES) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}
