/**
 * The model a property run checks the chains against: each route's account states, order status and fill,
 * and the expected token balance of every address that matters on both chains. Every action updates it
 * with what should have happened; after every action the chains must agree with it exactly.
 */
import type { Address, Hex } from 'viem';
import { AccountState, OrderStatus } from '../../../src/contracts/types.ts';
import type { PropertyRoute } from './route-spec.ts';
import type { World } from './world.ts';

export type ChainKey = 'a' | 'b';
export type AccountStateValue = (typeof AccountState)[keyof typeof AccountState];
export type OrderStatusValue = (typeof OrderStatus)[keyof typeof OrderStatus];

export interface RouteModel {
  route: PropertyRoute;
  originState: AccountStateValue;
  destState: AccountStateValue;
  /** Deployed accounts: address(O) on A and on B, address(D) on B. */
  deployed: { originA: boolean; originB: boolean; destB: boolean };
  orderStatus: OrderStatusValue;
  /** USDC sent to address(O) on A so far (steers the `progress` action). */
  originDeposited: bigint;
  /** Every status the order has been seen in, in order (for the one-transition rule). */
  statusHistory: OrderStatusValue[];
  fill?: { filler: Address; repaymentAddr: Address };
  /** The proof settle accepted, re-verified after every action. */
  settledWith?: { repaymentAddr: Address; proof: Hex };
}

/** Which tokens are tracked per chain (name → address). B also tracks the vault's shares. */
export type TokenSet = Record<string, Address>;

export class Model {
  readonly routes: RouteModel[];
  readonly tokens: Record<ChainKey, TokenSet>;
  readonly holders: Record<ChainKey, Address[]>;
  /** Addresses whose value belongs to intents: accounts and settlers, plus the contracts that must hold nothing. */
  readonly system: Record<ChainKey, Set<string>>;
  /** Contracts that must never hold anything. */
  readonly mustBeEmpty: Record<ChainKey, Address[]>;
  private readonly balances = new Map<string, bigint>();

  constructor(world: World, routes: PropertyRoute[]) {
    this.routes = routes.map((route) => ({
      route,
      originState: AccountState.None,
      destState: AccountState.None,
      deployed: { originA: false, originB: false, destB: false },
      orderStatus: OrderStatus.None,
      originDeposited: 0n,
      statusHistory: [OrderStatus.None],
    }));
    const { a, b } = world;
    const c = a.chain.contracts;
    const contracts = [c.intentFactory, c.intentAccountImplementation, c.fillVerifier, c.destinationSettler];
    this.tokens = {
      a: { usdc: a.chain.tokens.usdc, dai: a.chain.tokens.dai },
      b: { usdc: b.chain.tokens.usdc, dai: b.chain.tokens.dai, shares: world.vault },
    };
    const actors = (side: typeof a) => [
      ...world.owners,
      side.chain.accounts.relayer.address,
      side.chain.accounts.solver.address,
      side.chain.accounts.stranger.address,
      side.chain.accounts.feeCollector.address,
      world.treasury,
    ];
    const originAccounts = routes.map((r) => r.originAccount);
    const destAccounts = routes.map((r) => r.destAccount);
    this.mustBeEmpty = { a: contracts, b: [...contracts, c.originSettler] };
    const systemA = [...originAccounts, c.originSettler, ...contracts];
    const systemB = [...originAccounts, ...destAccounts, c.originSettler, ...contracts];
    this.system = { a: lowerSet(systemA), b: lowerSet(systemB) };
    this.holders = {
      a: unique([...actors(a), ...systemA]),
      b: unique([...actors(b), ...routes.map((r) => r.recipient), world.vault, ...systemB]),
    };
  }

  isSystem(chain: ChainKey, address: Address): boolean {
    return this.system[chain].has(address.toLowerCase());
  }

  key(chain: ChainKey, token: Address, holder: Address): string {
    return `${chain}:${token.toLowerCase()}:${holder.toLowerCase()}`;
  }

  balance(chain: ChainKey, token: Address, holder: Address): bigint {
    const value = this.balances.get(this.key(chain, token, holder));
    if (value === undefined) throw new Error(`untracked balance ${chain} ${token} ${holder}`);
    return value;
  }

  setBalance(chain: ChainKey, token: Address, holder: Address, value: bigint): void {
    if (value < 0n) throw new Error(`model balance would go negative: ${chain} ${token} ${holder}`);
    this.balances.set(this.key(chain, token, holder), value);
  }

  move(chain: ChainKey, token: Address, from: Address, to: Address, amount: bigint): void {
    this.setBalance(chain, token, from, this.balance(chain, token, from) - amount);
    this.setBalance(chain, token, to, this.balance(chain, token, to) + amount);
  }

  /** Sends `holder`'s whole balance of `token` to `to` (a refund or a sweep). */
  moveAll(chain: ChainKey, token: Address, holder: Address, to: Address): void {
    this.move(chain, token, holder, to, this.balance(chain, token, holder));
  }

  setOrderStatus(routeModel: RouteModel, status: OrderStatusValue): void {
    routeModel.orderStatus = status;
    routeModel.statusHistory.push(status);
  }

  /** Every tracked (token, holder) pair of a chain. */
  tracked(chain: ChainKey): { token: Address; holder: Address }[] {
    return Object.values(this.tokens[chain]).flatMap((token) =>
      this.holders[chain].map((holder) => ({ token, holder })),
    );
  }
}

function unique(addresses: Address[]): Address[] {
  const seen = new Map<string, Address>();
  for (const address of addresses) seen.set(address.toLowerCase(), address);
  return [...seen.values()];
}

function lowerSet(addresses: Address[]): Set<string> {
  return new Set(addresses.map((address) => address.toLowerCase()));
}
