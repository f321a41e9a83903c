/**
 * The commands whose work is in the lazily loaded actions (actions.ts, dist/actions.js). They are
 * registered at activation like every other command (package.json contributes them); the first one
 * invoked loads the actions, and each returns what its action returns (tests read it).
 */
import * as vscode from 'vscode';
import { Commands } from './commands';
import type { Actions } from './lazyActions';
import type { StorageNode } from '../objectStorage';

export function registerActionCommands(actions: () => Promise<Actions>): vscode.Disposable[] {
  /** Register `id` to run `fn` on the actions, once they are loaded. */
  const on = <A extends unknown[]>(id: string, fn: (a: Actions, ...args: A) => unknown) =>
    vscode.commands.registerCommand(id, (...args: A) => actions().then((a) => fn(a, ...args)));

  return [
    on(Commands.showOperations, (a) => a.follower.showOperations()),
    on(Commands.createCluster, (a) => a.create.create()),
    on(Commands.editCluster, (a, arg?: unknown) => a.clusters.edit(arg)),
    on(Commands.destroyCluster, (a, arg?: unknown) => a.clusters.destroy(arg)),
    on(Commands.copyClusterId, (a, arg?: unknown) => a.clusters.copyId(arg)),
    on(Commands.copyIp, (a, arg?: unknown) => a.clusters.copyIp(arg)),
    on(Commands.copySshCommand, (a, arg?: unknown) => a.connect.copySshCommand(arg)),
    on(Commands.openInRemoteSsh, (a, arg?: unknown) => a.connect.openRemote(arg)),
    on(Commands.openSshTerminal, (a, arg?: unknown) => a.connect.openTerminal(arg)),
    on(Commands.forwardPort, (a, arg?: unknown, port?: string) => a.ports.forwardPort(arg, port)),
    on(Commands.openForwardedPort, (a, arg?: unknown) => a.ports.open(arg)),
    on(Commands.stopForwarding, (a, arg?: unknown) => a.ports.stop(arg)),
    on(Commands.reconnectForward, (a, arg?: unknown) => a.ports.reconnect(arg)),
    on(Commands.openTensorBoard, (a, arg?: unknown) => a.portApps.openTensorBoard(arg)),
    on(Commands.openJupyter, (a, arg?: unknown) => a.portApps.openJupyter(arg)),
    on(Commands.addSshKey, (a) => a.sshKeys.add()),
    on(Commands.removeSshKey, (a, arg?: unknown) => a.sshKeys.remove(arg)),
    on(Commands.createBucket, (a) => a.buckets.createBucket()),
    on(Commands.deleteBucket, (a, node?: StorageNode | string) =>
      a.buckets.deleteBucket(
        typeof node === 'string' ? node : node?.kind === 'bucket' ? node.bucket : undefined,
      ),
    ),
    on(Commands.configureAws, (a) => a.storageConfig.configureAws()),
    on(Commands.configureRclone, (a) => a.storageConfig.configureRclone()),
    on(Commands.copyStorageEnvironment, (a) => a.storageConfig.copyEnvironment()),
    on(Commands.enableObjectStorage, (a) => a.storage.enable()),
    on(Commands.disableObjectStorage, (a) => a.storage.disable()),
    on(Commands.rotateObjectStorageKeys, (a) => a.storage.rotate(() => a.storageConfig.afterRotation())),
    on(Commands.showObjectStorageCredentials, (a) => a.storage.showDetails()),
    on(Commands.copyStorageEndpoint, (a) => a.storage.copy('endpoint')),
    on(Commands.copyStorageRegion, (a) => a.storage.copy('region')),
    on(Commands.copyStorageAccessKeyId, (a) => a.storage.copy('access_key_id')),
    on(Commands.copyStorageSecretKey, (a) => a.storage.copySecret()),
    on(Commands.copyStorageValue, (a, node?: StorageNode) => {
      if (node?.kind !== 'field') return undefined;
      if (node.field === 'secret') return a.storage.copySecret();
      if (node.field === 'endpoint' || node.field === 'region' || node.field === 'access_key_id')
        return a.storage.copy(node.field);
      return vscode.env.clipboard.writeText(node.value);
    }),
    on(Commands.createVolume, (a) => a.volumes.create()),
    on(Commands.editVolume, (a, arg?: unknown) => a.volumes.edit(arg)),
    on(Commands.destroyVolume, (a, arg?: unknown) => a.volumes.destroy(arg)),
    on(Commands.attachVolume, (a, arg?: unknown) => a.attach.attach(arg)),
    on(Commands.detachVolume, (a, arg?: unknown) => a.attach.detach(arg)),
    on(Commands.copyMountPath, (a, arg?: unknown) => a.volumes.copyMountPath(arg)),
    on(Commands.copyVolumeId, (a, arg?: unknown) => a.volumes.copyId(arg)),
    on(Commands.runJobFile, (a, arg?: unknown) => a.runJob.run(arg)),
    on(Commands.followJob, (a, arg?: unknown) => a.jobs.follow(arg)),
    on(Commands.cancelJob, (a, arg?: unknown) => a.jobs.cancel(arg)),
    on(Commands.deleteJob, (a, arg?: unknown) => a.jobs.delete(arg)),
    on(Commands.pullJobOutputs, (a, arg?: unknown) => a.pullJob.pull(arg)),
    on(Commands.copyJobId, (a, arg?: unknown) => a.jobs.copyId(arg)),
    on(Commands.showJobInfo, (a, arg?: unknown) => a.jobs.showInfo(arg)),
    on(Commands.showMetrics, (a, arg?: unknown) => a.jobs.showMetrics(arg)),
    on(Commands.showGpuMonitor, (a, arg?: unknown) => a.gpuMonitors.show(arg)),
  ];
}
