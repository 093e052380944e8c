/**
 * `tsx scripts/docs-assets.ts`: copies Swagger UI into public/docs/vendor (see scripts/lib/docs-assets.ts) and the
 * USE lite model into public/models/use-lite (scripts/lib/model-assets.ts).
 */
import { copyDocsAssets } from './lib/docs-assets.ts';
import { copyModelAssets } from './lib/model-assets.ts';

const copied = copyDocsAssets();
if (copied.length > 0) console.log(`docs assets: copied ${copied.join(', ')} to public/docs/vendor`);
const models = copyModelAssets();
if (models.length > 0) console.log(`model assets: copied ${models.length} file(s) to public/models/use-lite`);
