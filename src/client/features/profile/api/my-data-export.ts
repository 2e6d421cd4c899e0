/**
 * `GET /api/me/export` (docs/responsible-play.md): the player's data as one JSON file. The browser
 * downloads it itself (the server answers it as an attachment), so there is no fetcher here.
 */
export const MY_DATA_EXPORT_URL = '/api/me/export';
