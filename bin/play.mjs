#!/usr/bin/env node
// The `play` executable: loads TypeScript through tsx (playbooks are TypeScript modules too).
import { register } from 'tsx/esm/api';

register();
const { cli } = await import('../runner/cli/main.ts');
await cli();
