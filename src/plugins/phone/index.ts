/**
 * latchkey/plugins/phone: sign-in and sign-up with a phone number and a code sent by SMS.
 *   providers: [Phone({ sendSms: (to, text) => sms.send(to, text) })]
 * Written as any plugin outside latchkey would be: it imports only latchkey/server.
 */
export { Phone, type PhoneOptions, type PhoneProvider, type PhoneWords } from './provider.js'
export { phonePlugin } from './plugin.js'
export { isPhoneOnlyEmail, noEmailDomain, phoneNumberOf } from './account.js'
export { invalidNumber, type CountryCode } from './number.js'
