/**
 * The id of the element in which the server gives the page it sends the signed-in user, as
 * GET /api/user would answer (JSON, `null` when nobody is signed in), so that the first render
 * need not wait for that request.
 */
export const SESSION_USER_ELEMENT_ID = 'session-user';
