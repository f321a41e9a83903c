/**
 * The one error the config writers throw on purpose: the user's file is in a state we will not
 * edit (our section duplicated, our SSH block malformed, not UTF-8) or a value would corrupt it.
 * The message says what is wrong and what to do; it never contains a value we were asked to write
 * (those can be secrets), only key names, line numbers and file paths.
 */

export type ConfigErrorCode =
  | 'duplicate-section' // two sections/profiles/remotes with our name
  | 'malformed-block' // our marked SSH block: begin twice, begin without end, end before begin, ...
  | 'alias-taken' // an SSH alias we would write belongs to another cluster
  | 'invalid-value' // a key, value, name or path we were asked to write is unusable
  | 'not-utf8' // the file is not valid UTF-8; rewriting it would change bytes we do not own
  | 'concurrent-edit' // something else kept changing the file while we were writing it
  | 'symlink-loop' // the path is a chain of symbolic links that does not end
  | 'missing-section' // a configure text from the service does not contain the expected section
  | 'encrypted-config'; // rclone.conf is encrypted; only rclone itself can edit it

export class ConfigError extends Error {
  constructor(
    readonly code: ConfigErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ConfigError';
  }

  /** The same error with the file it concerns in front, for messages shown to the user. */
  inFile(file: string): ConfigError {
    return new ConfigError(this.code, `${file}: ${this.message}`);
  }
}
