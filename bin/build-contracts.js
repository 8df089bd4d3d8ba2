#!/usr/bin/env node
// Compiles contracts/ with solc-js into build/contracts (cached by source hash) and writes typed ABIs.
import { register } from 'tsx/esm/api';

register();
await import('../scripts/build-contracts.ts');
