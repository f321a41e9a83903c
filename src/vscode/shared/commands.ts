/**
 * The command ids the extension registers, in typed lists: the ones here, and a section's own in its folder's
 * `commandIds.ts` (`volumes/commandIds.ts`), made with `featureCommands`. A test checks them, every
 * `src/vscode/<folder>/commandIds.ts` found by name, against package.json `contributes.commands` both ways
 * (test/shared/commandIds.ts). Each id is the extension's prefix and its name (`Commands.refresh` is
 * `'tensorpool.refresh'`): the lists hold the names only, which keeps them small in the activation bundle.
 */
const NAMES = [
  'syncFolderToNode',
  'stopSync',
  'toggleSyncWatch',
  'syncMenu',
  'resumeSync',
  'pullFromNode',
  'signIn',
  'signOut',
  'retryAccountCheck',
  'refresh',
  'showLog',
  'openWalkthrough',
  'showListingText',
  'createCluster',
  'editCluster',
  'destroyCluster',
  'copyClusterId',
  'copyIp',
  'copySshCommand',
  'showOperations',
  'showMine',
  'showOrganization',
  'refreshObjectStorage',
  'enableObjectStorage',
  'disableObjectStorage',
  'rotateObjectStorageKeys',
  'showObjectStorageCredentials',
  'copyStorageEndpoint',
  'copyStorageRegion',
  'copyStorageAccessKeyId',
  'copyStorageSecretKey',
  'copyStorageValue',
  'createBucket',
  'deleteBucket',
  'openS3Object',
  'loadMoreObjects',
  'filterBucket',
  'uploadFiles',
  'uploadFolder',
  'downloadObjects',
  'deleteObjects',
  'copyS3Uri',
  'copyPresignedUrl',
  'copyRclonePath',
  'configureAws',
  'configureRclone',
  'copyStorageEnvironment',
  'openInRemoteSsh',
  'openSshTerminal',
  'forwardPort',
  'openForwardedPort',
  'stopForwarding',
  'reconnectForward',
  'openTensorBoard',
  'openJupyter',
  'restartKernel',
  'shutDownKernel',
  'stopJupyter',
  'refreshSshKeys',
  'addSshKey',
  'removeSshKey',
  'showSshKeysMine',
  'showSshKeysOrganization',
  'showSshKeysText',
  'newJobFile',
  'refreshJobs',
  'showJobsMine',
  'showJobsOrganization',
  'showJobListText',
  'runJobFile',
  'followJob',
  'showMetrics',
  'showGpuMonitor',
  'cancelJob',
  'deleteJob',
  'pullJobOutputs',
  'copyJobId',
  'showJobInfo',
] as const;

/** Each name's id: `{ refresh: 'tensorpool.refresh' }`. A feature's `commandIds.ts` (no `vscode` import: the
 *  manifest test loads it) declares its own with this. */
export function featureCommands<const N extends string>(
  names: readonly N[],
): { readonly [K in N]: `tensorpool.${K}` } {
  return Object.fromEntries(names.map((n) => [n, `tensorpool.${n}`])) as {
    readonly [K in N]: `tensorpool.${K}`;
  };
}

export const Commands = featureCommands(NAMES);

export const ALL_COMMANDS: readonly string[] = Object.values(Commands);
