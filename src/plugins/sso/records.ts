/** The sso plugin's records, as its store methods (store.ts) take and answer them. */

/** What a SAML connection knows of its identity provider, read from its metadata or typed in. */
export interface SamlSettings {
  /** The IdP's entity id: the Issuer its assertions must carry. */
  idpEntityId: string
  /** Where an SP-initiated sign-in sends the browser (the IdP's HTTP-Redirect SingleSignOnService). */
  ssoUrl: string
  /** The IdP's signing certificates (PEM bodies, base64): a signature by another key is refused. */
  certificates: string[]
  /** The metadata URL it was read from, where it was given one. */
  metadataUrl: string | null
  /** Sign-ins the IdP starts (no request of ours to answer): off unless the admin turns it on. */
  idpInitiated: boolean
  /** Each assertion signed (default), else a signed response is enough. */
  wantAssertionsSigned: boolean
}

export interface OidcSettings {
  issuer: string
  clientId: string
  /** Space-separated; `openid` always. Default `openid email profile`. */
  scopes: string
}

/** Which attribute (SAML) or claim (OIDC) holds each field. */
export interface AttributeMapping {
  email: string
  name: string
  groups: string
}

export interface ConnectionRecord {
  id: string
  organizationId: string
  kind: 'oidc' | 'saml'
  name: string
  /** Lower-case domains whose addresses this connection signs in; each must be verified for the organization to count. */
  domains: string[]
  /** Addresses of those domains may sign in through this connection only (no password or code). */
  required: boolean
  /** The role a member made by a first sign-in gets. */
  defaultRole: string
  /** A group the IdP names → the role it gives a new member (the highest-ranked wins). */
  groupRoles: Record<string, string>
  attributes: AttributeMapping
  oidc: OidcSettings | null
  saml: SamlSettings | null
  /** The OIDC client secret, sealed with the server's secret (seal.ts); never answered. */
  sealedSecret: string | null
  createdAt: Date
  updatedAt: Date
}

export type ConnectionChanges = Partial<Omit<ConnectionRecord, 'id' | 'organizationId' | 'kind' | 'createdAt'>>

/** The methods the plugin's schema adds to an adapter made with it. */
export interface SsoStore {
  createSsoConnection(connection: ConnectionRecord): Promise<ConnectionRecord>
  getSsoConnection(id: string): Promise<ConnectionRecord | null>
  listSsoConnections(organizationId: string): Promise<ConnectionRecord[]>
  /** Null when the organization has no connection of this id. */
  updateSsoConnection(organizationId: string, id: string, changes: ConnectionChanges): Promise<ConnectionRecord | null>
  deleteSsoConnection(organizationId: string, id: string): Promise<boolean>
  /** The connections that list `domain` (lower-case), oldest first. */
  listSsoConnectionsForDomain(domain: string): Promise<ConnectionRecord[]>
  /**
   * Marks `key` used until `expires`: true the first time, false for every later use while it is
   * kept (one winner across servers on one database). Expired keys are purged as it goes.
   */
  useSsoOnce(key: string, expires: Date, now: Date): Promise<boolean>
}
