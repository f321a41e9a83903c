/**
 * Job file names (`*.tp.toml`): which files are job files, and the names a new one may get (job.tp.toml,
 * then job2.tp.toml, ...; src/config/newFile.ts takes the first that is free on disk). Kept apart from the
 * checker (jobFile.ts, which needs the TOML parser) so the activation bundle can tell a job file without
 * loading the parser. No `vscode` import.
 */

/** Whether a file name (or path) names a job file. */
export function isJobFileName(fileName: string): boolean {
  return /\.tp\.toml$/i.test(fileName);
}

/** The candidate names for a new job file: job.tp.toml, job2.tp.toml, job3.tp.toml, ... */
export function* jobFileNames(): Generator<string, never> {
  yield 'job.tp.toml';
  for (let n = 2; ; n++) yield `job${n}.tp.toml`;
}
