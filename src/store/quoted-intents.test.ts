import { zeroAddress } from 'viem';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/harness/database.ts';
import { newIntent, randomAddress } from './testing.ts';
import type { IntentRecord, Project, Store } from './types.ts';

describeEachDialect('QUOTED intents for the deposit watch', ({ openStore }) => {
  let store: Store;
  let project: Project;
  beforeAll(async () => {
    store = await openStore();
    project = await store.projects.create('quoted-watch');
  });

  const ids = (records: IntentRecord[]) => records.map((r) => r.intentId);

  it('finds QUOTED intents by origin address on their chain only, in any case, and never other statuses', async () => {
    const quoted = await store.intents.insert(newIntent(project.id));
    const committed = await store.intents.insert(newIntent(project.id));
    await store.intents.updateStatus({ intentId: committed.intentId, to: 'COMMITTED' });
    const otherChain = await store.intents.insert(newIntent(project.id, { originChainId: 5 }));
    const addresses = [quoted, committed, otherChain].map((i) => i.originIntentAddress.toUpperCase());
    const found = await store.intents.quotedAtAddresses({
      originChainId: quoted.originChainId,
      addresses: [...addresses, randomAddress(), addresses[0]!],
    });
    expect(ids(found)).toEqual([quoted.intentId]);
    expect(await store.intents.quotedAtAddresses({ originChainId: 1, addresses: [] })).toEqual([]);
  });

  it('looks up more addresses than one statement takes', async () => {
    const quoted = await store.intents.insert(newIntent(project.id));
    const addresses = [...Array.from({ length: 1_200 }, randomAddress), quoted.originIntentAddress];
    const found = await store.intents.quotedAtAddresses({ originChainId: quoted.originChainId, addresses });
    expect(ids(found)).toEqual([quoted.intentId]);
  });

  it('pages through recent QUOTED intents of one deposit token by creation time', async () => {
    const base = Date.now() - 60_000;
    const native = (createdAt: number) =>
      newIntent(project.id, { originTokenAddress: zeroAddress, createdAt: new Date(createdAt) });
    const old = await store.intents.insert(native(base - 3_600_000));
    const a = await store.intents.insert(native(base + 1));
    const b = await store.intents.insert(native(base + 2));
    const c = await store.intents.insert(native(base + 2));
    const d = await store.intents.insert(native(base + 3));
    await store.intents.updateStatus({ intentId: d.intentId, to: 'COMMITTED' });
    await store.intents.insert(newIntent(project.id, { createdAt: new Date(base + 4) })); // another token
    const createdAfter = new Date(base);
    const first = await store.intents.listRecentQuoted({
      originTokenAddress: zeroAddress,
      createdAfter,
      limit: 2,
    });
    expect(ids(first)).toEqual([a.intentId, b.intentId]);
    const last = first.at(-1)!;
    const second = await store.intents.listRecentQuoted({
      originTokenAddress: zeroAddress,
      createdAfter,
      after: { createdAt: last.createdAt, id: last.id },
      limit: 2,
    });
    expect(ids(second)).toEqual([c.intentId]);
    expect(ids([...first, ...second])).not.toContain(old.intentId);
  });
});
