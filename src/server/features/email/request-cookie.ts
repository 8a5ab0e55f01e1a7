/** The cookie of the browser that asked for an email link (requester.ts), declared at start-up without loading its sealing. */
import { cookieKey } from '../../kernel/cookies.js'

/** The browser that asked for an email link: its address and link, so that browser alone signs in from a plain GET. */
export const requestCookie = cookieKey('email-request')
