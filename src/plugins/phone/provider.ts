/**
 * `Phone({ sendSms })`: the provider object an app lists in `providers`. It carries its plugin
 * (plugin.ts), so listing it installs the plugin: one line.
 */
import { defaultText, englishWords, type PhoneOptions, type PhoneProvider } from './options.js'
import { phonePlugin } from './plugin.js'

export type { PhoneOptions, PhoneProvider, PhoneWords } from './options.js'

export function Phone(options: PhoneOptions): PhoneProvider {
  return {
    id: options.id ?? 'phone',
    name: options.name ?? 'Phone',
    type: 'phone',
    sendSms: options.sendSms,
    defaultCountry: options.defaultCountry,
    text: options.text ?? defaultText,
    words: { ...englishWords, ...options.words },
    plugin: phonePlugin,
  }
}
