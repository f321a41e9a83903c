/**
 * Every command id the extension registers, in one typed list. A test checks it against
 * package.json `contributes.commands` both ways.
 */
export const Commands = {
  signIn: 'tensorpool.signIn',
  signOut: 'tensorpool.signOut',
  retryAccountCheck: 'tensorpool.retryAccountCheck',
  refresh: 'tensorpool.refresh',
  showLog: 'tensorpool.showLog',
  showListingText: 'tensorpool.showListingText',
  createCluster: 'tensorpool.createCluster',
  editCluster: 'tensorpool.editCluster',
  destroyCluster: 'tensorpool.destroyCluster',
  copyClusterId: 'tensorpool.copyClusterId',
  copyIp: 'tensorpool.copyIp',
  copySshCommand: 'tensorpool.copySshCommand',
  showOperations: 'tensorpool.showOperations',
  showMine: 'tensorpool.showMine',
  showOrganization: 'tensorpool.showOrganization',
  refreshObjectStorage: 'tensorpool.refreshObjectStorage',
  enableObjectStorage: 'tensorpool.enableObjectStorage',
  disableObjectStorage: 'tensorpool.disableObjectStorage',
  rotateObjectStorageKeys: 'tensorpool.rotateObjectStorageKeys',
  showObjectStorageCredentials: 'tensorpool.showObjectStorageCredentials',
  copyStorageEndpoint: 'tensorpool.copyStorageEndpoint',
  copyStorageRegion: 'tensorpool.copyStorageRegion',
  copyStorageAccessKeyId: 'tensorpool.copyStorageAccessKeyId',
  copyStorageSecretKey: 'tensorpool.copyStorageSecretKey',
  copyStorageValue: 'tensorpool.copyStorageValue',
  createBucket: 'tensorpool.createBucket',
  deleteBucket: 'tensorpool.deleteBucket',
  configureAws: 'tensorpool.configureAws',
  configureRclone: 'tensorpool.configureRclone',
  copyStorageEnvironment: 'tensorpool.copyStorageEnvironment',
  openInRemoteSsh: 'tensorpool.openInRemoteSsh',
  openSshTerminal: 'tensorpool.openSshTerminal',
  // --- saved SSH keys (src/vscode/sshKeys.ts) ---
  refreshSshKeys: 'tensorpool.refreshSshKeys',
  addSshKey: 'tensorpool.addSshKey',
  removeSshKey: 'tensorpool.removeSshKey',
  showSshKeysMine: 'tensorpool.showSshKeysMine',
  showSshKeysOrganization: 'tensorpool.showSshKeysOrganization',
  showSshKeysText: 'tensorpool.showSshKeysText',
  // storage volumes
  refreshVolumes: 'tensorpool.refreshVolumes',
  showVolumesMine: 'tensorpool.showVolumesMine',
  showVolumesOrganization: 'tensorpool.showVolumesOrganization',
  showVolumeListText: 'tensorpool.showVolumeListText',
  createVolume: 'tensorpool.createVolume',
  editVolume: 'tensorpool.editVolume',
  attachVolume: 'tensorpool.attachVolume',
  detachVolume: 'tensorpool.detachVolume',
  destroyVolume: 'tensorpool.destroyVolume',
  copyMountPath: 'tensorpool.copyMountPath',
  copyVolumeId: 'tensorpool.copyVolumeId',
  // job files (src/vscode/jobFileSetup.ts)
  newJobFile: 'tensorpool.newJobFile',
} as const;

export type CommandId = (typeof Commands)[keyof typeof Commands];
export const ALL_COMMANDS: readonly CommandId[] = Object.values(Commands);
