/** `tsx scripts/docs-assets.ts`: copies Swagger UI into public/docs/vendor (see scripts/lib/docs-assets.ts). */
import { copyDocsAssets } from './lib/docs-assets.ts';

const copied = copyDocsAssets();
if (copied.length > 0) console.log(`docs assets: copied ${copied.join(', ')} to public/docs/vendor`);
