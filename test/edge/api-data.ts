/**
 * The TMDB document for tests inside workerd, as text without indentation (0.67 MB): the `?compact` import
 * (vitest.config.ts) keeps the module under the 1 MiB message limit of the WebSocket that brings modules to workerd,
 * which the document as written (1.31 MB) is over.
 */
import tmdbText from '../../data/apis/restbench-tmdb/restgpt/specs/tmdb_oas.json?compact';

export { tmdbText };
