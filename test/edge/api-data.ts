/**
 * The TMDB document for tests inside workerd. Modules reach workerd over a WebSocket whose messages are limited
 * to 1 MiB, and the document's text (1.31 MB, pretty-printed) is over it, so it is imported as JSON (Vite makes a
 * `JSON.parse` module of the minified text, 0.67 MB) and written back as text here: the same document, without
 * its indentation.
 */
import tmdbDocument from '../../data/apis/restbench-tmdb/restgpt/specs/tmdb_oas.json';

export const tmdbText: string = JSON.stringify(tmdbDocument);
