/**
 * `npm run openapi`: writes docs/openapi.json from the route catalogue (src/protocol/api.ts) and
 * its zod schemas. tests/server/openapi.test.ts fails when the file is stale or a registered
 * route is missing from the catalogue.
 */
import { writeFileSync } from 'node:fs';
import { openApiDocument } from '../server/openapi.ts';

const OPENAPI_FILE = 'docs/openapi.json';

writeFileSync(OPENAPI_FILE, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log(`wrote ${OPENAPI_FILE}`);
