/** The local multi-chain devnet: start it, read its devnet.json, turn that into the server's chains. */
export type { DevnetAccount, DevnetAccounts } from './accounts.ts';
export { devnetAccounts } from './accounts.ts';
export { DEVNET_CHAINS, type DevnetRole } from './constants.ts';
export {
  type DevnetChainEntry,
  type DevnetFile,
  devnetChainConfigs,
  readDevnetFile,
} from './devnet-file.ts';
export { devnetFilePath } from './devnet-file-path.ts';
export { DevnetPortInUseError } from './errors.ts';
export { type RunningDevnet, type StartDevnetOptions, startDevnet } from './start-devnet.ts';
