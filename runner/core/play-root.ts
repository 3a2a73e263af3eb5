// Where play itself is on disk, for the code that reads play's own files (shipped playbooks, the init
// templates, package.json): the CLI runs the compiled tree dist/ inside the package, the tests run the
// sources under a TypeScript loader. This file sits two levels below either root.
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The tree this code runs from: the package's dist/ when compiled, else the package itself. */
export const CODE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Running as compiled JavaScript in dist/ (the CLI), not from the sources (tests). */
export const RUNNING_COMPILED = import.meta.url.endsWith('.js') && basename(CODE_ROOT) === 'dist';
/** The package's root: package.json, templates/, the TypeScript sources. */
export const PACKAGE_ROOT = RUNNING_COMPILED ? dirname(CODE_ROOT) : CODE_ROOT;
