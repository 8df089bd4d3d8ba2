/** Errors of the devnet; each adds how to fix the condition to the message. */
import { PortInUseError } from '../internal/errors.ts';

/** A devnet chain's port is taken: says which chain, which port, and how to pick other ports. */
export class DevnetPortInUseError extends PortInUseError {
  constructor(host: string, port: number, chainName: string, basePort: number, chainCount: number) {
    super(host, port, `devnet chain "${chainName}"`);
    this.message =
      `${this.message}. The devnet uses ports ${basePort}–${basePort + chainCount - 1} ` +
      `(one per chain); stop whatever holds port ${port} or choose other ports with --base-port <port>.`;
  }
}
