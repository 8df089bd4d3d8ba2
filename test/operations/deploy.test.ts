/**
 * `switchyard deploy` on plain anvil chains that nothing else set up, run as a child process: the plan sends
 * nothing, the deployment puts the same addresses on every chain with this build's code, a second run sends
 * nothing, other code at one of our addresses is an error naming the contract and chain, a chain without the
 * CREATE2 deployer stops with instructions that work, and a deployer short of funds is told before sending.
 */
import { parseEther } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CREATE2_DEPLOYER,
  CREATE2_DEPLOYER_CODE,
  CREATE2_INSTALL_FUNDING_WEI,
  CREATE2_INSTALL_SIGNER,
  CREATE2_INSTALL_TRANSACTION,
} from '../../src/contracts/create2.ts';
import { findCodeProblems } from '../../src/contracts/find-code-problems.ts';
import type { SwitchyardContracts } from '../../src/internal/config-types.ts';
import { type FreshChain, startFreshChain } from './support/fresh-chain.ts';
import { runCli } from './support/run-cli.ts';

interface DeployJson {
  chains: { chainId: number; contracts: SwitchyardContracts; deployed?: string[]; plan?: { gas: string } }[];
}

const deployerKey = generatePrivateKey();
const deployer = privateKeyToAccount(deployerKey).address;
const attester = privateKeyToAccount(generatePrivateKey()).address;
const env = { SWITCHYARD_DEPLOYER_KEY: deployerKey, SWITCHYARD_ATTESTER_ADDRESS: attester };
const chains: FreshChain[] = [];

const deploy = (rpcUrls: string[], ...flags: string[]) =>
  runCli(['deploy', ...rpcUrls.flatMap((url) => ['--rpc-url', url]), ...flags], env);

async function started(chainId: number, extraArgs: string[] = []): Promise<FreshChain> {
  const chain = await startFreshChain(chainId, extraArgs);
  chains.push(chain);
  return chain;
}

afterAll(async () => {
  await Promise.all(chains.map((c) => c.stop()));
});

describe('switchyard deploy on two fresh chains', () => {
  let a: FreshChain;
  let b: FreshChain;
  beforeAll(async () => {
    [a, b] = await Promise.all([started(515_001), started(515_002)]);
    for (const c of [a, b]) await c.test.setBalance({ address: deployer, value: parseEther('10') });
  });

  it('plans without sending: four contracts to deploy, with their gas', async () => {
    const { code, stdout, stderr } = await deploy([a.rpcUrl, b.rpcUrl], '--plan', '--json');
    expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
    const { chains: planned } = JSON.parse(stdout) as DeployJson;
    expect(planned.map((c) => c.chainId)).toEqual([515_001, 515_002]);
    for (const c of planned) expect(BigInt(c.plan!.gas)).toBeGreaterThan(1_000_000n);
    expect(await a.client.getTransactionCount({ address: deployer })).toBe(0);
  }, 120_000);

  it('deploys the same addresses on both chains, each holding this build’s code', async () => {
    const { code, stdout, stderr } = await deploy([a.rpcUrl, b.rpcUrl], '--json');
    expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
    const [onA, onB] = (JSON.parse(stdout) as DeployJson).chains;
    expect(onA!.contracts).toEqual(onB!.contracts);
    expect(onA!.deployed).toEqual(['fillVerifier', 'originSettler', 'destinationSettler', 'intentFactory']);
    for (const c of [a, b]) expect(await findCodeProblems(c.client, onA!.contracts)).toEqual([]);
    expect(await a.client.getTransactionCount({ address: deployer })).toBe(4);
  }, 120_000);

  it('sends nothing the second time and says every contract is already deployed', async () => {
    const nonces = await Promise.all([a, b].map((c) => c.client.getTransactionCount({ address: deployer })));
    const { code, stdout } = await deploy([a.rpcUrl, b.rpcUrl]);
    expect(code).toBe(0);
    expect(stdout).toContain('chain 515001 (http://127.0.0.1:');
    expect(stdout).toContain('0 deployed, 4 already deployed');
    expect(await Promise.all([a, b].map((c) => c.client.getTransactionCount({ address: deployer })))).toEqual(
      nonces,
    );
  }, 120_000);
});

describe('switchyard deploy refuses', () => {
  it('other code at one of our addresses, naming the contract and the chain', async () => {
    const c = await started(515_003);
    await c.test.setBalance({ address: deployer, value: parseEther('10') });
    const planned = JSON.parse((await deploy([c.rpcUrl], '--plan', '--json')).stdout) as DeployJson;
    const verifier = planned.chains[0]!.contracts.fillVerifier;
    await c.test.setCode({ address: verifier, bytecode: '0x6000' });
    const { code, stderr } = await deploy([c.rpcUrl]);
    expect(code).toBe(1);
    expect(stderr).toContain(`chain 515003: fillVerifier at ${verifier} holds other code than this build's`);
    expect(await c.client.getTransactionCount({ address: deployer })).toBe(0);
  }, 120_000);

  it('a chain without the CREATE2 deployer, with instructions that install it', async () => {
    const c = await started(515_004, ['--no-create2']);
    await c.test.setBalance({ address: deployer, value: parseEther('10') });
    const refused = await deploy([c.rpcUrl]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`chain 515004: the CREATE2 deployer ${CREATE2_DEPLOYER} has no code`);
    expect(refused.stderr).toContain(`send 0.01 of the native currency to ${CREATE2_INSTALL_SIGNER}`);

    // What the message says: fund the one-time signer, broadcast the presigned transaction.
    await c.test.setBalance({ address: CREATE2_INSTALL_SIGNER, value: CREATE2_INSTALL_FUNDING_WEI });
    const hash = await c.client.request({
      method: 'eth_sendRawTransaction',
      params: [CREATE2_INSTALL_TRANSACTION],
    });
    await c.client.waitForTransactionReceipt({ hash });
    expect(await c.client.getCode({ address: CREATE2_DEPLOYER })).toBe(CREATE2_DEPLOYER_CODE);
    const { code, stdout } = await deploy([c.rpcUrl]);
    expect(code).toBe(0);
    expect(stdout).toContain('4 deployed, 0 already deployed');
  }, 120_000);

  it('a deployer that cannot pay, before sending anything', async () => {
    const c = await started(515_005);
    const { code, stderr } = await deploy([c.rpcUrl]);
    expect(code).toBe(1);
    expect(stderr).toContain(`chain 515005: the deployer ${deployer} holds 0 of the native currency`);
    expect(await c.client.getTransactionCount({ address: deployer })).toBe(0);
  }, 120_000);

  it('a missing attester or deployer key, and a missing --rpc-url', async () => {
    const noAttester = await runCli(['deploy', '--rpc-url', 'http://127.0.0.1:1'], {
      SWITCHYARD_DEPLOYER_KEY: deployerKey,
    });
    expect(noAttester.code).toBe(1);
    expect(noAttester.stderr).toContain('set SWITCHYARD_ATTESTER_ADDRESS (or SWITCHYARD_ATTESTER_KEY)');
    const noKey = await runCli(['deploy', '--rpc-url', 'http://127.0.0.1:1'], {
      SWITCHYARD_ATTESTER_ADDRESS: attester,
    });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain('SWITCHYARD_DEPLOYER_KEY must be set');
    const noUrl = await runCli(['deploy'], env);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('--rpc-url URL is required');
    const help = await runCli(['deploy', '--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('usage: switchyard deploy');
  }, 120_000);
});
