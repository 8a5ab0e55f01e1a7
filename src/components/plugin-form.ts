/**
 * The way in of a provider its plugin describes (`AppProvider.form`, `code`: `Phone()`), loaded
 * only where the server has one.
 */
import { h } from './dom.js'
import { carried, codeForm, codeInput, form, type OwnRenderer } from './own-ways.js'

/**
 * A provider its plugin describes (`form`: a phone number, say): the identifier fills its first
 * field, `form.send` sends the code, and the code step follows with `form.sent` (`{name}` of a
 * field reads its value) and the code's form. The words are the plugin's.
 */
export const pluginForm: OwnRenderer = (host, p) => {
  if (host.place === 'foot' || !p.form) return null
  const { fields, send, sent, codeLabel } = p.form
  const inputs = fields.map((f, i) => {
    const props = { name: f.name, type: f.type ?? 'text', required: true, autocomplete: f.autocomplete ?? 'off', part: 'input' }
    return host.named && !i ? carried(host, props) : h('input', props)
  })
  const nodes = inputs.map((input, i) => (input.hidden ? input : h('label', { part: 'label' }, fields[i]!.label, input)))
  const values = (): Record<string, string> => Object.fromEntries(inputs.map((i) => [i.name, i.value]))
  return form(host, 'plugin-form', p, send, nodes, async (submit) => {
    const typed = values()
    if (!(await host.run(submit, () => host.client.signIn(p.id, { ...typed, callbackUrl: host.callbackUrl, redirect: false, ...host.confirm })))) return
    const input = codeInput(p.code?.numeric ?? true)
    const signIn = async () => {
      const result = await host.client.signIn(p.id, { ...typed, code: input.value, callbackUrl: host.callbackUrl, redirect: false, ...host.confirm })
      if (host.redirect && result.ok && result.url) location.href = result.url
      return result
    }
    host.sent(sent.replace(/\{(\w+)\}/g, (all, key: string) => typed[key] ?? all), false, codeForm(host, codeLabel, host.label, input, signIn))
  })
}

