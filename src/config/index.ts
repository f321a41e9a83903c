/**
 * The config writers for the user's own files (AWS CLI profile, rclone remote, SSH hosts) and the
 * environment-variable alternative. Pure Node: no `vscode` import, so the VS Code layer decides
 * when to ask and what to show, and these modules decide what is written and how.
 */
export * from './errors';
export * from './atomicWrite';
export * from './credentials';
export * from './mask';
export { CONFIGPARSER_DIALECT, FLAT_DIALECT, readSection, removeSection, upsertSection } from './ini';
export type {
  IniDialect,
  IniEntry,
  KeyChange,
  SectionEdit,
  SectionRef,
  SectionRemoval,
  UpsertOptions,
} from './ini';
export * from './iniFile';
export {
  AWS_CONFIG_KEYS,
  AWS_CREDENTIALS_KEYS,
  awsConfigTarget,
  awsCredentialsTarget,
  awsEntries,
  awsEntriesFromConfigure,
  awsPaths,
  previewAwsProfile,
  previewAwsRemoval,
  removeAwsProfile,
  writeAwsProfile,
} from './aws';
export type {
  AwsConfigOptions,
  AwsConfigureAnswer,
  AwsEntries,
  AwsOldTexts,
  AwsPaths,
  AwsPreview,
  AwsWriteResult,
  Env,
} from './aws';
export {
  RCLONE_KEYS,
  rcloneConfigPath,
  rcloneEntries,
  rcloneEntriesFromConfigure,
  rcloneTarget,
  previewRcloneRemote,
  previewRcloneRemoval,
  removeRcloneRemote,
  writeRcloneRemote,
} from './rclone';
export type { RcloneConfigureAnswer, RclonePathOptions } from './rclone';
export * from './env';
export * from './sshHosts';
export * from './sshConfig';
export * from './knownHosts';
export * from './sshKeys';
export * from './dotenv';
