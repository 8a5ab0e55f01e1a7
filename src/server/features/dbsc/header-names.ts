/** The DBSC response headers, apart from registration.ts so the session read names one without loading it. */
export const registrationHeaderName = 'secure-session-registration'
export const challengeHeaderName = 'secure-session-challenge'
