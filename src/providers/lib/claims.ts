/** The standard claims of OpenID Connect Core 1.0, section 5.1, plus the ID token basics. */
export interface StandardClaims {
  sub: string
  iss?: string
  aud?: string | string[]
  exp?: number
  iat?: number
  auth_time?: number
  nonce?: string
  name?: string | null
  given_name?: string
  family_name?: string
  middle_name?: string
  nickname?: string
  preferred_username?: string
  profile?: string
  picture?: string | null
  website?: string
  email?: string | null
  email_verified?: boolean
  gender?: string
  birthdate?: string
  zoneinfo?: string
  locale?: string
  phone_number?: string
  phone_number_verified?: boolean
  address?: {
    formatted?: string
    street_address?: string
    locality?: string
    region?: string
    postal_code?: string
    country?: string
  }
  updated_at?: number | string
  [claim: string]: unknown
}

/** The usual mapping of standard claims to a user. */
export function standardUser(claims: StandardClaims) {
  return {
    id: claims.sub,
    name: claims.name ?? claims.preferred_username ?? claims.nickname ?? null,
    email: claims.email ?? null,
    image: claims.picture ?? null,
  }
}
