export { mergeProvider, mergeEndpoint } from './merge.js'
export { trimSlash, discovery, under, authHeader, fetchJson, joinName, endpointUrl, withQuery } from './util.js'
export { standardUser, type StandardClaims } from './claims.js'
export { signInMessage, sendEmailRequest, optionOf, required, basic, trimBase, definedOnly, type EmailUserConfig } from './email.js'
