/**
 * `<latchkey-organization>`'s "Edit details": the organization's name, slug and logo URL in one
 * form, for a role with `organization:update`. Checked here as the server checks them (its
 * fields.ts), so a refusal names its field before anything is sent; only what changed is sent.
 */
import type { OrganizationDetails } from '../client/index.js'
import { h } from './dom.js'
import { invalid, takenName } from './organization-roles.js'
import type { ProfileKey } from './profile-words.js'

/** Lowercase letters, digits and "-", not at either end, at most 48 (the server's slugPattern). */
const takenSlug = (slug: string) => slug.length <= 48 && /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/.test(slug)
/** An http(s) URL of at most 2,048 characters. */
function takenLogo(logo: string): boolean {
  if (logo.length > 2048) return false
  try {
    return /^https?:$/.test(new URL(logo).protocol)
  } catch {
    return false
  }
}

export type DetailsChange = { name?: string; slug?: string; logo?: string | null }

export class DetailsForm {
  name = h('input', { name: 'name', autocomplete: 'organization', maxlength: 100, required: true, part: 'input name-input', id: 'details-name' })
  slug = h('input', { name: 'slug', autocomplete: 'off', maxlength: 48, required: true, part: 'input slug-input', dir: 'ltr', autocapitalize: 'off', spellcheck: false, id: 'details-slug' })
  logo = h('input', { type: 'url', name: 'logo', autocomplete: 'off', maxlength: 2048, part: 'input logo-input', dir: 'ltr', id: 'details-logo' })
  save = h('button', { type: 'submit', part: 'button primary save' })
  cancel: HTMLButtonElement
  form: HTMLFormElement
  constructor(submit: () => void, close: () => void) {
    this.cancel = h('button', { type: 'button', part: 'button cancel', onclick: close })
    this.form = h('form', {
      part: 'form details-form', novalidate: true,
      onkeydown: (e: KeyboardEvent) => e.key === 'Escape' && close(),
      onsubmit: (e: Event) => (e.preventDefault(), submit()),
    },
      ...[this.name, this.slug, this.logo].map((input) => h('label', { part: 'label', for: input.id }, h('span'), input)),
      h('div', { class: 'row' }, this.save, this.cancel),
    )
  }
  /** The organization's values, as the form opens. */
  fill(d: OrganizationDetails) {
    this.name.value = d.name
    this.slug.value = d.slug
    this.logo.value = d.logo ?? ''
  }
  /** Its words in the element's language. */
  words(p: (key: ProfileKey) => string, cancel: string) {
    const [name, slug, logo] = this.form.querySelectorAll('label > span')
    name!.textContent = p('organizationName')
    slug!.textContent = p('organizationSlug')
    logo!.textContent = p('organizationLogo')
    this.form.setAttribute('aria-label', p('editOrganization'))
    this.save.textContent = p('save')
    this.cancel.textContent = cancel
  }
  /** What changed from `d`, each field checked: a refusal throws `InvalidRequest` with its field. */
  changes(d: OrganizationDetails): DetailsChange {
    const name = this.name.value.trim()
    const slug = this.slug.value.trim()
    const logo = this.logo.value.trim()
    if (!takenName(name)) throw invalid(this.name)
    if (!takenSlug(slug)) throw invalid(this.slug)
    if (logo && !takenLogo(logo)) throw invalid(this.logo)
    return {
      ...(name !== d.name && { name }),
      ...(slug !== d.slug && { slug }),
      ...((logo || null) !== d.logo && { logo: logo || null }),
    }
  }
  /** The field a refusal is about: the one found here, or the one the server names. */
  fieldOf(e: unknown): HTMLInputElement | undefined {
    const { code, field, message } = e as { code?: string; field?: HTMLInputElement; message?: string }
    if (field) return field
    if (code === 'SlugTaken') return this.slug
    const named = code === 'InvalidRequest' && /"(name|slug|logo)"/.exec(message ?? '')?.[1]
    return named ? this[named as 'name' | 'slug' | 'logo'] : undefined
  }
  /** The words for a refusal of one of its fields. */
  refusal(field: HTMLInputElement | undefined, code: string | undefined): ProfileKey | undefined {
    if (code !== 'InvalidRequest') return undefined
    return field === this.slug ? 'slugInvalid' : field === this.logo ? 'imageInvalid' : 'organizationNameInvalid'
  }
}
