/**
 * One sample profile per provider, in the shape of the provider's own documentation of its
 * user/profile response, and the user latchkey must map it to. Written by hand, per provider.
 */
import type { TokenSet, User } from '../../src/core/types.js'

export interface Sample {
  /** The brand name on the button. */
  name: string
  type: 'oauth' | 'oidc'
  /** Options beyond clientId/clientSecret (issuer of a tenant, ...). */
  options?: Record<string, unknown>
  profile: Record<string, unknown>
  tokens?: TokenSet
  user: User
}


export const samples: Record<string, Sample> = {
  '42-school': {
    name: '42 School',
    type: 'oauth',
    profile: {
      id: 97135, email: 'norminet@student.42.fr', login: 'norminet', first_name: 'Norm', last_name: 'Inet',
      usual_full_name: 'Norminet the Cat', usual_first_name: null, displayname: 'Norm Inet', url: 'https://api.intra.42.fr/v2/users/norminet', phone: 'hidden',
      image: { link: 'https://cdn.intra.42.fr/users/abc/norminet.jpg', versions: { large: null, medium: null, small: null, micro: null } },
      'staff?': false, pool_month: 'september', pool_year: '2021', wallet: 5,
    },
    user: { id: '97135', name: 'Norminet the Cat', email: 'norminet@student.42.fr', image: 'https://cdn.intra.42.fr/users/abc/norminet.jpg' },
  },
  apple: {
    name: 'Apple',
    type: 'oidc',
    profile: {
      iss: 'https://appleid.apple.com', aud: 'com.example.web', sub: '001234.abcdef0123456789.0123', exp: 1700003600, iat: 1700000000,
      email: 'x8k2@privaterelay.appleid.com', email_verified: 'true', is_private_email: 'true', real_user_status: 2,
      user: { name: { firstName: 'Ada', lastName: 'Lovelace' }, email: 'x8k2@privaterelay.appleid.com' },
    },
    user: { id: '001234.abcdef0123456789.0123', name: 'Ada Lovelace', email: 'x8k2@privaterelay.appleid.com', image: null },
  },
  asgardeo: {
    name: 'Asgardeo',
    type: 'oidc',
    options: { issuer: 'https://api.asgardeo.io/t/acme/oauth2/token' },
    profile: { sub: '4a1b2c3d-0000-1111-2222-333344445555', given_name: 'Grace', family_name: 'Hopper', email: 'grace@acme.io', username: 'grace@acme.io' },
    user: { id: '4a1b2c3d-0000-1111-2222-333344445555', name: 'Grace Hopper', email: 'grace@acme.io', image: null },
  },
  atlassian: {
    name: 'Atlassian',
    type: 'oauth',
    profile: {
      account_type: 'atlassian', account_id: '5b10ac8d82e05b22cc7d4ef5', email: 'mia@example.com', name: 'Mia Krystof',
      picture: 'https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/5b10a/abc/128', account_status: 'active',
      nickname: 'mkrystof', zoneinfo: 'Australia/Sydney', locale: 'en-US', extended_profile: { job_title: 'Designer' },
    },
    user: {
      id: '5b10ac8d82e05b22cc7d4ef5', name: 'Mia Krystof', email: 'mia@example.com',
      image: 'https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/5b10a/abc/128',
    },
  },
  auth0: {
    name: 'Auth0',
    type: 'oidc',
    options: { issuer: 'https://acme.eu.auth0.com' },
    profile: {
      sub: 'auth0|507f1f77bcf86cd799439020', nickname: 'janedoe', name: 'Jane Doe', picture: 'https://s.gravatar.com/avatar/abc.png',
      updated_at: '2024-01-15T10:00:00.000Z', email: 'janedoe@example.com', email_verified: true,
    },
    user: { id: 'auth0|507f1f77bcf86cd799439020', name: 'Jane Doe', email: 'janedoe@example.com', image: 'https://s.gravatar.com/avatar/abc.png' },
  },
  authentik: {
    name: 'Authentik',
    type: 'oidc',
    options: { issuer: 'https://authentik.example.com/application/o/latchkey/' },
    profile: {
      sub: 'f0e1d2c3b4a5968778695a4b3c2d1e0f', email: 'akadmin@example.com', email_verified: true, name: 'authentik Default Admin',
      given_name: 'authentik Default Admin', preferred_username: 'akadmin', nickname: 'akadmin', groups: ['authentik Admins'],
    },
    user: { id: 'f0e1d2c3b4a5968778695a4b3c2d1e0f', name: 'authentik Default Admin', email: 'akadmin@example.com', image: null },
  },
  'azure-ad-b2c': {
    name: 'Azure Active Directory B2C',
    type: 'oidc',
    options: { issuer: 'https://contoso.b2clogin.com/775527ff-9a37-4307-8b3d-cc311f58d925/v2.0/' },
    profile: {
      sub: '45d4b4e5-84a1-4a36-bb1e-3d3a9c3f1d00', oid: '45d4b4e5-84a1-4a36-bb1e-3d3a9c3f1d00', tfp: 'B2C_1_signupsignin',
      emails: ['b2c.user@contoso.com'], given_name: 'Bea', family_name: 'Tran', name: 'Bea T.',
    },
    user: { id: '45d4b4e5-84a1-4a36-bb1e-3d3a9c3f1d00', name: 'Bea T.', email: 'b2c.user@contoso.com', image: null },
  },
  'azure-ad': {
    name: 'Azure Active Directory',
    type: 'oidc',
    profile: {
      sub: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ', oid: '00000000-0000-0000-66f3-3332eca7ea81', tid: '9122040d-6c67-4c5b-b112-36a304b66dad',
      name: 'Abe Lincoln', preferred_username: 'AbeLi@microsoft.com', email: 'abe@contoso.com', ver: '2.0',
    },
    user: { id: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ', name: 'Abe Lincoln', email: 'abe@contoso.com', image: null },
  },
  'azure-devops': {
    name: 'Azure DevOps',
    type: 'oauth',
    profile: {
      displayName: 'Jamal Hartnett', publicAlias: 'a9b8c7d6-0000-1111-2222-333344445555', emailAddress: 'jamal@fabrikam.com',
      coreRevision: 1, timeStamp: '2024-01-01T00:00:00+00:00', id: 'a9b8c7d6-0000-1111-2222-333344445555', revision: 1,
      coreAttributes: { Avatar: { value: { contentType: 'image/png', value: 'iVBORw0KGgo=' } } },
    },
    user: { id: 'a9b8c7d6-0000-1111-2222-333344445555', name: 'Jamal Hartnett', email: 'jamal@fabrikam.com', image: 'data:image/png;base64,iVBORw0KGgo=' },
  },
  'bankid-no': {
    name: 'BankID Norge',
    type: 'oidc',
    profile: { sub: '9578-6000-4-365161', name: 'Kari Nordmann', given_name: 'Kari', family_name: 'Nordmann', birthdate: '1986-10-01' },
    user: { id: '9578-6000-4-365161', name: 'Kari Nordmann', email: null, image: null },
  },
  battlenet: {
    name: 'Battle.net',
    type: 'oidc',
    profile: { sub: '123456789', id: 123456789, battle_tag: 'Thrall#1234' },
    user: { id: '123456789', name: 'Thrall#1234', email: null, image: null },
  },
  beyondidentity: {
    name: 'Beyond Identity',
    type: 'oidc',
    options: { issuer: 'https://auth-us.beyondidentity.com/v1/tenants/t1/realms/r1/applications/a1' },
    profile: { sub: 'c4d5e6f7', preferred_username: 'lee', email: 'lee@example.com', name: 'Lee Park' },
    user: { id: 'c4d5e6f7', name: 'Lee Park', email: 'lee@example.com', image: null },
  },
  bitbucket: {
    name: 'Bitbucket',
    type: 'oauth',
    profile: {
      uuid: '{b5e3f7a2-1c2d-4e5f-8a9b-0c1d2e3f4a5b}', account_id: '557058:abc', nickname: 'tutorials', display_name: 'tutorials account', type: 'user',
      links: { avatar: { href: 'https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/557058:abc/128' } },
      email: 'tutorials@example.com',
    },
    user: {
      id: '{b5e3f7a2-1c2d-4e5f-8a9b-0c1d2e3f4a5b}', name: 'tutorials account', email: 'tutorials@example.com',
      image: 'https://avatar-management--avatars.us-west-2.prod.public.atl-paas.net/557058:abc/128',
    },
  },
  box: {
    name: 'Box',
    type: 'oauth',
    profile: { id: '11446498', type: 'user', name: 'Aaron Levie', login: 'ceo@example.com', avatar_url: 'https://www.box.com/api/avatar/large/181216415', language: 'en' },
    user: { id: '11446498', name: 'Aaron Levie', email: 'ceo@example.com', image: 'https://www.box.com/api/avatar/large/181216415' },
  },
  'boxyhq-saml': {
    name: 'BoxyHQ SAML',
    type: 'oauth',
    options: { issuer: 'https://jackson.example.com' },
    profile: { id: 'samluser-1', email: 'sam@acme.example', firstName: 'Sam', lastName: 'Hill', requested: { tenant: 'acme', product: 'app' } },
    user: { id: 'samluser-1', name: 'Sam Hill', email: 'sam@acme.example', image: null },
  },
  bungie: {
    name: 'Bungie',
    type: 'oauth',
    options: { apiKey: 'x-api-key' },
    profile: {
      membershipId: '14422301', uniqueName: 'Guardian#0042', displayName: 'Guardian', profilePicturePath: '/img/profile/avatars/cc13.jpg',
      locale: 'en', firstAccess: '2015-01-01T00:00:00.000Z',
    },
    user: { id: '14422301', name: 'Guardian', email: null, image: 'https://www.bungie.net/img/profile/avatars/cc13.jpg' },
  },
  'click-up': {
    name: 'ClickUp',
    type: 'oauth',
    profile: {
      user: { id: 123, username: 'John Doe', email: 'john@example.com', color: '#000000', profilePicture: 'https://attachments.clickup.com/profilePictures/123_abc.jpg', initials: 'JD', week_start_day: 0, global_font_support: false, timezone: 'America/Los_Angeles' },
    },
    user: { id: '123', name: 'John Doe', email: 'john@example.com', image: 'https://attachments.clickup.com/profilePictures/123_abc.jpg' },
  },
  cognito: {
    name: 'Cognito',
    type: 'oidc',
    options: { issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf123' },
    profile: { sub: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee', email_verified: true, 'cognito:username': 'janedoe', email: 'jane@example.com' },
    user: { id: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee', name: 'janedoe', email: 'jane@example.com', image: null },
  },
  coinbase: {
    name: 'Coinbase',
    type: 'oauth',
    profile: {
      data: {
        id: '9da7a204-544e-5fd1-9a12-61176c5d4cd8', name: 'User One', username: 'user1', profile_location: null, profile_bio: null,
        profile_url: 'https://coinbase.com/user1', avatar_url: 'https://images.coinbase.com/avatar?h=vR%2FY8igBoPwuwGren5JMwvDNGpURAY%2F0nRIOgH%2FY2Qh%2BQ6nomR3qusA%2Bh6o2%0Af9rH&s=128',
        resource: 'user', resource_path: '/v2/user', email: 'user1@example.com',
      },
    },
    user: {
      id: '9da7a204-544e-5fd1-9a12-61176c5d4cd8', name: 'User One', email: 'user1@example.com',
      image: 'https://images.coinbase.com/avatar?h=vR%2FY8igBoPwuwGren5JMwvDNGpURAY%2F0nRIOgH%2FY2Qh%2BQ6nomR3qusA%2Bh6o2%0Af9rH&s=128',
    },
  },
  concept2: {
    name: 'Concept2',
    type: 'oauth',
    profile: {
      data: { id: 1, username: 'david', first_name: 'David', last_name: 'Hart', gender: 'M', dob: '1970-01-01', email: 'david@concept2.com', country: 'USA', profile_image: 'https://log.concept2.com/img/profile/1.jpg', age_restricted: false, email_permission: true, max_heart_rate: null, weight: 7800, logbook_privacy: 'everyone' },
    },
    user: { id: '1', name: 'David Hart', email: 'david@concept2.com', image: 'https://log.concept2.com/img/profile/1.jpg' },
  },
  descope: {
    name: 'Descope',
    type: 'oidc',
    options: { clientId: 'P2abcDEF' },
    profile: { sub: 'U2xyz', name: 'Dana Scope', email: 'dana@example.com', email_verified: true, picture: 'https://cdn.example.com/dana.png' },
    user: { id: 'U2xyz', name: 'Dana Scope', email: 'dana@example.com', image: 'https://cdn.example.com/dana.png' },
  },
  discord: {
    name: 'Discord',
    type: 'oauth',
    profile: {
      id: '80351110224678912', username: 'nelly', discriminator: '0', global_name: 'Nelly', avatar: '8342729096ea3675442027381ff50dfe',
      verified: true, email: 'nelly@discord.com', flags: 64, banner: null, accent_color: 16711680, premium_type: 1, public_flags: 64, mfa_enabled: true, locale: 'en-US',
    },
    user: { id: '80351110224678912', name: 'Nelly', email: 'nelly@discord.com', image: 'https://cdn.discordapp.com/avatars/80351110224678912/8342729096ea3675442027381ff50dfe.png' },
  },
  dribbble: {
    name: 'Dribbble',
    type: 'oauth',
    profile: { id: 1, name: 'Dan Cederholm', login: 'simplebits', html_url: 'https://dribbble.com/simplebits', avatar_url: 'https://cdn.dribbble.com/users/1/avatars/normal/dc.jpg?1371679243', bio: 'Co-founder', location: 'Salem, MA', pro: true },
    user: { id: '1', name: 'Dan Cederholm', email: null, image: 'https://cdn.dribbble.com/users/1/avatars/normal/dc.jpg?1371679243' },
  },
  dropbox: {
    name: 'Dropbox',
    type: 'oauth',
    profile: {
      account_id: 'dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc',
      name: { abbreviated_name: 'FD', display_name: 'Franz Ferdinand (Personal)', familiar_name: 'Franz', given_name: 'Franz', surname: 'Ferdinand' },
      email: 'franz@dropbox.com', email_verified: true, disabled: false, locale: 'en', referral_link: 'https://db.tt/ZITNuhtI', is_paired: true,
      account_type: { '.tag': 'business' }, profile_photo_url: 'https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?vers=1556069330102&size=128x128', country: 'US',
    },
    user: {
      id: 'dbid:AAH4f99T0taONIb-OurWxbNQ6ywGRopQngc', name: 'Franz Ferdinand (Personal)', email: 'franz@dropbox.com',
      image: 'https://dl-web.dropbox.com/account_photo/get/dbaphid%3AAAHWGmIXV3sUuOmBfTz0wPsiqHUpBWvv3ZA?vers=1556069330102&size=128x128',
    },
  },
  'duende-identity-server6': {
    name: 'Duende IdentityServer6',
    type: 'oidc',
    options: { issuer: 'https://demo.duendesoftware.com' },
    profile: { sub: '1', name: 'Alice Smith', given_name: 'Alice', family_name: 'Smith', email: 'AliceSmith@email.com', email_verified: true, website: 'http://alice.com' },
    user: { id: '1', name: 'Alice Smith', email: 'AliceSmith@email.com', image: null },
  },
  eventbrite: {
    name: 'Eventbrite',
    type: 'oauth',
    profile: {
      id: '1234567890', name: 'Ev Organizer', first_name: 'Ev', last_name: 'Organizer', is_public: false, image_id: null,
      emails: [{ email: 'old@example.com', verified: false, primary: false }, { email: 'ev@example.com', verified: true, primary: true }],
    },
    user: { id: '1234567890', name: 'Ev Organizer', email: 'ev@example.com', image: null },
  },
  eveonline: {
    name: 'EVE Online',
    type: 'oauth',
    profile: {
      CharacterID: 95465499, CharacterName: 'CCP Bartender', ExpiresOn: '2024-01-01T12:00:00', Scopes: 'publicData', TokenType: 'Character',
      CharacterOwnerHash: 'lots_of_letters', IntellectualProperty: 'EVE',
    },
    user: { id: '95465499', name: 'CCP Bartender', email: null, image: 'https://images.evetech.net/characters/95465499/portrait?size=128' },
  },
  facebook: {
    name: 'Facebook',
    type: 'oauth',
    profile: {
      id: '10158000000000001', name: 'Mark Example', email: 'mark@example.com',
      picture: { data: { height: 50, width: 50, is_silhouette: false, url: 'https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10158000000000001' } },
    },
    user: { id: '10158000000000001', name: 'Mark Example', email: 'mark@example.com', image: 'https://platform-lookaside.fbsbx.com/platform/profilepic/?asid=10158000000000001' },
  },
  faceit: {
    name: 'FACEIT',
    type: 'oauth',
    profile: { guid: 'b8e3c4f0-0000-4f4b-9d3e-111122223333', nickname: 's1mple', email: 's1mple@example.com', given_name: 'Oleksandr', family_name: 'K', picture: 'https://assets.faceit-cdn.net/avatars/s1mple.jpg', locale: 'en' },
    user: { id: 'b8e3c4f0-0000-4f4b-9d3e-111122223333', name: 's1mple', email: 's1mple@example.com', image: 'https://assets.faceit-cdn.net/avatars/s1mple.jpg' },
  },
  figma: {
    name: 'Figma',
    type: 'oauth',
    profile: { id: '1085472880012345678', email: 'designer@example.com', handle: 'Dee Signer', img_url: 'https://s3-alpha.figma.com/profile/abc' },
    user: { id: '1085472880012345678', name: 'Dee Signer', email: 'designer@example.com', image: 'https://s3-alpha.figma.com/profile/abc' },
  },
  foursquare: {
    name: 'Foursquare',
    type: 'oauth',
    profile: {
      id: '1234567', firstName: 'Dennis', lastName: 'Crowley', gender: 'male', relationship: 'self',
      photo: { prefix: 'https://fastly.4sqi.net/img/user/', suffix: '/ABCDEF.jpg' }, contact: { email: 'dens@example.com' },
    },
    user: { id: '1234567', name: 'Dennis Crowley', email: 'dens@example.com', image: 'https://fastly.4sqi.net/img/user/original/ABCDEF.jpg' },
  },
  freshbooks: {
    name: 'FreshBooks',
    type: 'oauth',
    profile: {
      response: {
        id: 2192788, identity_id: 2192788, identity_uuid: 'c54c0a6a-0000-4b4a-8a0b-1f2e3d4c5b6a', first_name: 'Freddy', last_name: 'Books',
        email: 'freddy@example.com', language: 'en', confirmed_at: '2023-01-01T00:00:00Z', business_memberships: [],
      },
    },
    user: { id: '2192788', name: 'Freddy Books', email: 'freddy@example.com', image: null },
  },
  frontegg: {
    name: 'Frontegg',
    type: 'oidc',
    options: { issuer: 'https://app-abc123.frontegg.com' },
    profile: { sub: 'a1b2c3d4-user', name: 'Fran Tegg', email: 'fran@example.com', email_verified: true, profilePictureUrl: 'https://www.gravatar.com/avatar/xyz?d=pp', tenantId: 'tenant-1' },
    user: { id: 'a1b2c3d4-user', name: 'Fran Tegg', email: 'fran@example.com', image: 'https://www.gravatar.com/avatar/xyz?d=pp' },
  },
  fusionauth: {
    name: 'FusionAuth',
    type: 'oidc',
    options: { issuer: 'https://auth.example.com' },
    profile: {
      sub: '00000000-0000-0001-0000-000000000000', email: 'richard@fusionauth.io', email_verified: true, preferred_username: 'richard',
      given_name: 'Richard', family_name: 'Hendricks', picture: 'https://www.gravatar.com/avatar/rh', applicationId: '85a03867-dccf-4882-adde-1a79aeec50df', roles: ['admin'],
    },
    user: { id: '00000000-0000-0001-0000-000000000000', name: 'richard', email: 'richard@fusionauth.io', image: 'https://www.gravatar.com/avatar/rh' },
  },
  github: {
    name: 'GitHub',
    type: 'oauth',
    profile: {
      login: 'octocat', id: 1, node_id: 'MDQ6VXNlcjE=', avatar_url: 'https://github.com/images/error/octocat_happy.gif', html_url: 'https://github.com/octocat',
      type: 'User', site_admin: false, name: null, company: 'GitHub', blog: 'https://github.com/blog', location: 'San Francisco',
      email: 'octocat@github.com', bio: 'There once was...', public_repos: 2, followers: 20, following: 0, created_at: '2008-01-14T04:33:35Z', updated_at: '2008-01-14T04:33:35Z',
    },
    user: { id: '1', name: 'octocat', email: 'octocat@github.com', image: 'https://github.com/images/error/octocat_happy.gif' },
  },
  gitlab: {
    name: 'GitLab',
    type: 'oauth',
    profile: {
      id: 1, username: 'john_smith', name: 'John Smith', state: 'active', avatar_url: 'http://localhost:3000/uploads/user/avatar/1/index.jpg',
      web_url: 'http://localhost:3000/john_smith', email: 'john@example.com', public_email: 'john@example.com', locked: false, two_factor_enabled: true,
    },
    user: { id: '1', name: 'John Smith', email: 'john@example.com', image: 'http://localhost:3000/uploads/user/avatar/1/index.jpg' },
  },
  google: {
    name: 'Google',
    type: 'oidc',
    profile: {
      iss: 'https://accounts.google.com', azp: '1234987819200.apps.googleusercontent.com', aud: '1234987819200.apps.googleusercontent.com',
      sub: '10769150350006150715113082367', at_hash: 'HK6E_P6Dh8Y93mRNtsDB1Q', hd: 'example.com', email: 'jsmith@example.com', email_verified: true,
      iat: 1353601026, exp: 1353604926, name: 'J Smith', picture: 'https://lh3.googleusercontent.com/a/photo.jpg', given_name: 'J', family_name: 'Smith',
    },
    user: { id: '10769150350006150715113082367', name: 'J Smith', email: 'jsmith@example.com', image: 'https://lh3.googleusercontent.com/a/photo.jpg' },
  },
  hubspot: {
    name: 'HubSpot',
    type: 'oauth',
    profile: {
      token: 'CJSP5qf1KhICAQEYs-gDIIGOBii1hQIyGQAf3xBKmlwHjX7OIpuIFEavB2-qYAGQsF4', user: 'test@hubspot.com', hub_domain: 'demo.hubapi.com',
      scopes: ['oauth'], hub_id: 62515, app_id: 456, expires_in: 21588, user_id: 123, token_type: 'access',
    },
    user: { id: '123', name: 'test@hubspot.com', email: 'test@hubspot.com', image: null },
  },
  huggingface: {
    name: 'Hugging Face',
    type: 'oidc',
    profile: {
      sub: '5f2c3a8e9d1b0c0012345678', name: 'Clem Delangue', preferred_username: 'clem', profile: 'https://huggingface.co/clem',
      picture: 'https://cdn-avatars.huggingface.co/v1/production/uploads/clem.png', website: 'https://huggingface.co', email: 'clem@huggingface.co', email_verified: true, isPro: true, orgs: [],
    },
    user: { id: '5f2c3a8e9d1b0c0012345678', name: 'Clem Delangue', email: 'clem@huggingface.co', image: 'https://cdn-avatars.huggingface.co/v1/production/uploads/clem.png' },
  },
  hydra: {
    name: 'Hydra',
    type: 'oidc',
    options: { issuer: 'https://hydra.example.com' },
    profile: { sub: 'd2b7a9f0-hydra', email: 'ory@example.com', email_verified: true, name: 'Ory User', picture: 'https://example.com/ory.png' },
    user: { id: 'd2b7a9f0-hydra', name: 'Ory User', email: 'ory@example.com', image: 'https://example.com/ory.png' },
  },
  'identity-server4': {
    name: 'IdentityServer4',
    type: 'oidc',
    options: { issuer: 'https://demo.identityserver.io' },
    profile: { sub: '88421113', name: 'Bob Smith', given_name: 'Bob', family_name: 'Smith', email: 'BobSmith@email.com', email_verified: true, idp: 'local', amr: ['pwd'] },
    user: { id: '88421113', name: 'Bob Smith', email: 'BobSmith@email.com', image: null },
  },
  instagram: {
    name: 'Instagram',
    type: 'oauth',
    profile: { id: '17841405793187218', user_id: '17841405793187218', username: 'jayposiris', name: '', account_type: 'BUSINESS', profile_picture_url: 'https://scontent.cdninstagram.com/v/jay.jpg' },
    user: { id: '17841405793187218', name: 'jayposiris', email: null, image: 'https://scontent.cdninstagram.com/v/jay.jpg' },
  },
  kakao: {
    name: 'Kakao',
    type: 'oauth',
    profile: {
      id: 123456789, connected_at: '2022-04-11T01:45:28Z',
      properties: { nickname: '홍길동', profile_image: 'http://yyy.kakao.com/dn/.../img_640x640.jpg', thumbnail_image: 'http://yyy.kakao.com/.../img_110x110.jpg' },
      kakao_account: {
        profile_needs_agreement: false,
        profile: { nickname: '홍길동', thumbnail_image_url: 'http://yyy.kakao.com/.../img_110x110.jpg', profile_image_url: 'http://yyy.kakao.com/dn/.../img_640x640.jpg', is_default_image: false },
        email_needs_agreement: false, is_email_valid: true, is_email_verified: true, email: 'sample@sample.com',
      },
    },
    user: { id: '123456789', name: '홍길동', email: 'sample@sample.com', image: 'http://yyy.kakao.com/dn/.../img_640x640.jpg' },
  },
  keycloak: {
    name: 'Keycloak',
    type: 'oidc',
    options: { issuer: 'https://sso.example.com/realms/acme' },
    profile: {
      sub: 'f:2c6b6a2b:jdoe', email_verified: true, name: 'John Doe', preferred_username: 'jdoe', given_name: 'John', family_name: 'Doe', email: 'jdoe@example.com',
      realm_access: { roles: ['offline_access'] },
    },
    user: { id: 'f:2c6b6a2b:jdoe', name: 'John Doe', email: 'jdoe@example.com', image: null },
  },
  kinde: {
    name: 'Kinde',
    type: 'oidc',
    options: { issuer: 'https://acme.kinde.com' },
    profile: { sub: 'kp_c3143a4b50ad43c88e541d9077681782', given_name: 'Kim', family_name: 'Inde', email: 'kim@acme.com', picture: 'https://lh3.googleusercontent.com/kim' },
    user: { id: 'kp_c3143a4b50ad43c88e541d9077681782', name: 'Kim Inde', email: 'kim@acme.com', image: 'https://lh3.googleusercontent.com/kim' },
  },
  line: {
    name: 'LINE',
    type: 'oidc',
    profile: {
      iss: 'https://access.line.me', sub: 'U1234567890abcdef1234567890abcdef', aud: '1234567890', exp: 1504169092, iat: 1504263657, amr: ['pwd'],
      name: 'Taro Line', picture: 'https://sample_line.me/aBcdefg123456', email: 'taro.line@example.com',
    },
    user: { id: 'U1234567890abcdef1234567890abcdef', name: 'Taro Line', email: 'taro.line@example.com', image: 'https://sample_line.me/aBcdefg123456' },
  },
  linkedin: {
    name: 'LinkedIn',
    type: 'oidc',
    profile: {
      sub: '782bbtaQ', name: 'John Doe', given_name: 'John', family_name: 'Doe', picture: 'https://media.licdn-ei.com/dms/image/C5F03AQHqK8v7tB1HCQ/profile-displayphoto-shrink_100_100/0/',
      locale: 'en-US', email: 'doe@email.com', email_verified: true,
    },
    user: { id: '782bbtaQ', name: 'John Doe', email: 'doe@email.com', image: 'https://media.licdn-ei.com/dms/image/C5F03AQHqK8v7tB1HCQ/profile-displayphoto-shrink_100_100/0/' },
  },
  logto: {
    name: 'Logto',
    type: 'oidc',
    options: { issuer: 'https://acme.logto.app/oidc' },
    profile: { sub: 'logto-uid-1', name: null, username: 'logto_user', picture: 'https://logto.io/avatar.png', email: 'user@logto.io', email_verified: true },
    user: { id: 'logto-uid-1', name: 'logto_user', email: 'user@logto.io', image: 'https://logto.io/avatar.png' },
  },
  mailchimp: {
    name: 'Mailchimp',
    type: 'oauth',
    profile: {
      dc: 'us1', role: 'owner', accountname: 'Freddie Co', user_id: 8675309,
      login: { email: 'freddie@example.com', avatar: 'https://gallery.mailchimp.com/avatar.png', login_id: 42, login_name: 'freddie', login_email: 'freddie@example.com' },
      login_url: 'https://login.mailchimp.com', api_endpoint: 'https://us1.api.mailchimp.com',
    },
    user: { id: '42', name: 'Freddie Co', email: 'freddie@example.com', image: 'https://gallery.mailchimp.com/avatar.png' },
  },
  mailru: {
    name: 'Mail.ru',
    type: 'oauth',
    profile: {
      id: '1234567890123456789', gender: 'm', name: 'Иван Иванов', nickname: 'ivan', locale: 'ru_RU', first_name: 'Иван', last_name: 'Иванов',
      email: 'ivan@mail.ru', birthday: '01.01.1990', image: 'https://filin.mail.ru/pic?email=ivan%40mail.ru',
    },
    user: { id: '1234567890123456789', name: 'Иван Иванов', email: 'ivan@mail.ru', image: 'https://filin.mail.ru/pic?email=ivan%40mail.ru' },
  },
  mastodon: {
    name: 'Mastodon',
    type: 'oauth',
    options: { issuer: 'https://mastodon.social' },
    profile: {
      id: '14715', username: 'trwnh', acct: 'trwnh', display_name: 'infinite love ⴳ', locked: false, bot: false, created_at: '2016-11-24T00:00:00.000Z',
      note: '', url: 'https://mastodon.social/@trwnh', avatar: 'https://files.mastodon.social/accounts/avatars/000/014/715/original/a.png',
      avatar_static: 'https://files.mastodon.social/accounts/avatars/000/014/715/original/a_static.png', header: '', header_static: '',
      followers_count: 821, following_count: 178, statuses_count: 33120,
    },
    user: { id: '14715', name: 'infinite love ⴳ', email: null, image: 'https://files.mastodon.social/accounts/avatars/000/014/715/original/a_static.png' },
  },
  mattermost: {
    name: 'Mattermost',
    type: 'oauth',
    options: { issuer: 'https://chat.example.com' },
    profile: { id: 'ys5b4w3x7jdm9r1oomqibtn8ny', username: 'matt', email: 'matt@example.com', first_name: 'Matt', last_name: 'Ermost', nickname: '', roles: 'system_user' },
    user: { id: 'ys5b4w3x7jdm9r1oomqibtn8ny', name: 'Matt Ermost', email: 'matt@example.com', image: null },
  },
  medium: {
    name: 'Medium',
    type: 'oauth',
    profile: { data: { id: '5303d74c64f66366f00cb9b2a94f3251bf5', username: 'majelbstoat', name: 'Jamie Talbot', url: 'https://medium.com/@majelbstoat', imageUrl: 'https://images.medium.com/0*fkfQiTzT7TlUGGyI.png' } },
    user: { id: '5303d74c64f66366f00cb9b2a94f3251bf5', name: 'Jamie Talbot', email: null, image: 'https://images.medium.com/0*fkfQiTzT7TlUGGyI.png' },
  },
  'microsoft-entra-id': {
    name: 'Microsoft Entra ID',
    type: 'oidc',
    profile: {
      sub: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ', oid: '00000000-0000-0000-66f3-3332eca7ea81', tid: '9122040d-6c67-4c5b-b112-36a304b66dad',
      name: 'Megan Bowen', preferred_username: 'MeganB@contoso.com', email: 'megan.bowen@contoso.com', ver: '2.0',
    },
    user: { id: 'AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bbtaQ', name: 'Megan Bowen', email: 'megan.bowen@contoso.com', image: null },
  },
  naver: {
    name: 'Naver',
    type: 'oauth',
    profile: {
      resultcode: '00', message: 'success',
      response: { id: '32742776', nickname: 'OpenAPI', name: '오픈 API', email: 'openapi@naver.com', gender: 'F', age: '40-49', birthday: '10-01', profile_image: 'https://ssl.pstatic.net/static/pwe/address/nodata_33x33.gif', birthyear: '1900', mobile: '010-0000-0000' },
    },
    user: { id: '32742776', name: 'OpenAPI', email: 'openapi@naver.com', image: 'https://ssl.pstatic.net/static/pwe/address/nodata_33x33.gif' },
  },
  netlify: {
    name: 'Netlify',
    type: 'oauth',
    profile: { id: '5c8a1e2b3d4f5a6b7c8d9e0f', uid: null, full_name: 'Netty Lify', avatar_url: 'https://avatars.githubusercontent.com/u/1?v=4', email: 'netty@example.com', site_count: 3 },
    user: { id: '5c8a1e2b3d4f5a6b7c8d9e0f', name: 'Netty Lify', email: 'netty@example.com', image: 'https://avatars.githubusercontent.com/u/1?v=4' },
  },
  netsuite: {
    name: 'NetSuite',
    type: 'oauth',
    options: { accountID: '1234567_SB1', userinfo: 'https://1234567-sb1.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=486&deploy=1' },
    profile: { id: -5, name: 'Larry Nelson', email: 'larry@example.com', location: 0, role: 3, roleId: 'administrator', roleCenter: 'BASIC', subsidiary: 1 },
    user: { id: '-5', name: 'Larry Nelson', email: 'larry@example.com', image: null },
  },
  nextcloud: {
    name: 'Nextcloud',
    type: 'oauth',
    options: { issuer: 'https://cloud.example.com/' },
    profile: { enabled: true, id: 'frank', displayname: 'Frank K.', email: 'frank@example.org', groups: ['admin'], language: 'en' },
    user: { id: 'frank', name: 'Frank K.', email: 'frank@example.org', image: 'https://cloud.example.com/avatar/frank/64' },
  },
  notion: {
    name: 'Notion',
    type: 'oauth',
    profile: {
      object: 'user', id: 'e79a0b74-3aba-4149-9f74-0bb5791a6ee6', type: 'person', name: 'Avocado Lovelace',
      avatar_url: 'https://secure.notion-static.com/e6a352a8-8381-44d0-a1dc-9ed80e62b53d.jpg', person: { email: 'avo@example.org' },
    },
    user: { id: 'e79a0b74-3aba-4149-9f74-0bb5791a6ee6', name: 'Avocado Lovelace', email: 'avo@example.org', image: 'https://secure.notion-static.com/e6a352a8-8381-44d0-a1dc-9ed80e62b53d.jpg' },
  },
  okta: {
    name: 'Okta',
    type: 'oidc',
    options: { issuer: 'https://acme.okta.com/oauth2/default' },
    profile: { sub: '00uid4BxXw6I6TV4m0g3', name: 'John Doe', nickname: 'Jimmy', given_name: 'John', family_name: 'Doe', preferred_username: 'john.doe@example.com', email: 'john.doe@example.com', email_verified: true, zoneinfo: 'America/Los_Angeles' },
    user: { id: '00uid4BxXw6I6TV4m0g3', name: 'John Doe', email: 'john.doe@example.com', image: null },
  },
  onelogin: {
    name: 'OneLogin',
    type: 'oidc',
    options: { issuer: 'https://acme.onelogin.com/oidc/2' },
    profile: { sub: '123456', email: 'oliver@acme.com', preferred_username: 'oliver', name: 'Oliver Login', given_name: 'Oliver', family_name: 'Login', groups: ['Everyone'] },
    user: { id: '123456', name: 'Oliver Login', email: 'oliver@acme.com', image: null },
  },
  osso: {
    name: 'Osso',
    type: 'oauth',
    options: { issuer: 'https://demo.ossoapp.com' },
    profile: { id: 'c4b9b4e2-osso', email: 'user@example.com', idp: 'Okta', requested: { domain: 'example.com', email: null } },
    user: { id: 'c4b9b4e2-osso', name: null, email: 'user@example.com', image: null },
  },
  osu: {
    name: 'osu!',
    type: 'oauth',
    profile: { id: 2, username: 'peppy', avatar_url: 'https://a.ppy.sh/2?1519081077.png', country_code: 'AU', default_group: 'default', is_active: true, is_bot: false, is_supporter: true, playmode: 'osu' },
    user: { id: '2', name: 'peppy', email: null, image: 'https://a.ppy.sh/2?1519081077.png' },
  },
  passage: {
    name: 'Passage',
    type: 'oidc',
    options: { issuer: 'https://myapp123.withpassage.com' },
    profile: { sub: 'pU2zoJ0LxSTRfU4nX8HNO6fE', email: 'pat@example.com', email_verified: true, phone_number: '', phone_number_verified: false },
    user: { id: 'pU2zoJ0LxSTRfU4nX8HNO6fE', name: null, email: 'pat@example.com', image: null },
  },
  patreon: {
    name: 'Patreon',
    type: 'oauth',
    profile: {
      data: { id: '12345', type: 'user', attributes: { email: 'creator@example.com', full_name: 'Corey Creator', image_url: 'https://c8.patreon.com/2/200/12345', is_email_verified: true } },
      links: { self: 'https://www.patreon.com/api/oauth2/v2/user/12345' },
    },
    user: { id: '12345', name: 'Corey Creator', email: 'creator@example.com', image: 'https://c8.patreon.com/2/200/12345' },
  },
  'ping-id': {
    name: 'Ping Identity',
    type: 'oidc',
    options: { issuer: 'https://auth.pingone.com/0a7af83d-4ed9-4510-93cd-506fe835f69a/as' },
    profile: { sub: '5f6a1d3c-ping', name: 'Pat Ping', email: 'pat.ping@example.com', env: '0a7af83d-4ed9-4510-93cd-506fe835f69a', 'p1.region': 'NA' },
    user: { id: '5f6a1d3c-ping', name: 'Pat Ping', email: 'pat.ping@example.com', image: null },
  },
  pinterest: {
    name: 'Pinterest',
    type: 'oauth',
    profile: { id: '549755885175', username: 'pinner1', account_type: 'PINNER', profile_image: 'https://i.pinimg.com/280x280_RS/pinner1.jpg', website_url: 'https://example.com', business_name: null, follower_count: 10 },
    user: { id: '549755885175', name: 'pinner1', email: null, image: 'https://i.pinimg.com/280x280_RS/pinner1.jpg' },
  },
  pipedrive: {
    name: 'Pipedrive',
    type: 'oauth',
    profile: { success: true, data: { id: 123, name: 'Pip Drive', default_currency: 'EUR', email: 'pip@example.com', icon_url: 'https://pipedrive-profile-pics.s3.amazonaws.com/pip.jpg', activated: true, company_id: 7, company_domain: 'acme' } },
    user: { id: '123', name: 'Pip Drive', email: 'pip@example.com', image: 'https://pipedrive-profile-pics.s3.amazonaws.com/pip.jpg' },
  },
  reddit: {
    name: 'Reddit',
    type: 'oauth',
    profile: {
      id: 'abc12', name: 'spez', icon_img: 'https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snoo.png?width=256&amp;height=256&amp;s=abc',
      snoovatar_img: '', created_utc: 1118030400, has_verified_email: true, total_karma: 100,
    },
    user: { id: 'abc12', name: 'spez', email: null, image: 'https://styles.redditmedia.com/t5_3k30p/styles/profileIcon_snoo.png?width=256&height=256&s=abc' },
  },
  roblox: {
    name: 'Roblox',
    type: 'oidc',
    profile: {
      sub: '1516563360', name: 'exampleuser', nickname: 'exampleuser', preferred_username: 'exampleuser', created_at: 1584682495,
      profile: 'https://www.roblox.com/users/1516563360/profile', picture: 'https://tr.rbxcdn.com/30DAY-AvatarHeadshot-abc/150/150/AvatarHeadshot/Png/noFilter',
    },
    user: { id: '1516563360', name: 'exampleuser', email: null, image: 'https://tr.rbxcdn.com/30DAY-AvatarHeadshot-abc/150/150/AvatarHeadshot/Png/noFilter' },
  },
  salesforce: {
    name: 'Salesforce',
    type: 'oidc',
    profile: {
      sub: 'https://login.salesforce.com/id/00Dx0000000BV7z/005x00000012Q9P', user_id: '005x00000012Q9P', organization_id: '00Dx0000000BV7z',
      preferred_username: 'admin@mycompany.com', nickname: 'admin', name: 'Sarah Admin', email: 'admin@mycompany.com', email_verified: true,
      picture: 'https://c.na1.content.force.com/profilephoto/005/F', user_type: 'STANDARD',
    },
    user: { id: '005x00000012Q9P', name: 'Sarah Admin', email: 'admin@mycompany.com', image: 'https://c.na1.content.force.com/profilephoto/005/F' },
  },
  simplelogin: {
    name: 'SimpleLogin',
    type: 'oidc',
    profile: { id: 2, sub: '2', client: 'Demo App', email: 'alias.amused@simplelogin.co', email_verified: true, name: 'Son NK', avatar_url: 'https://app.simplelogin.io/avatar/2.png' },
    user: { id: '2', name: 'Son NK', email: 'alias.amused@simplelogin.co', image: 'https://app.simplelogin.io/avatar/2.png' },
  },
  slack: {
    name: 'Slack',
    type: 'oidc',
    profile: {
      sub: 'U0R7JM', 'https://slack.com/user_id': 'U0R7JM', 'https://slack.com/team_id': 'T0R7GR', email: 'krane@slack-corp.com', email_verified: true,
      date_email_verified: 1622128723, name: 'krane', picture: 'https://secure.gravatar.com/....png', given_name: 'Bront', family_name: 'Labradoodle',
      locale: 'en-US', 'https://slack.com/team_name': 'kraneflannel', 'https://slack.com/team_domain': 'kraneflannel',
      'https://slack.com/user_image_512': 'https://secure.gravatar.com/avatar/krane_512.png',
    },
    user: { id: 'U0R7JM', name: 'krane', email: 'krane@slack-corp.com', image: 'https://secure.gravatar.com/avatar/krane_512.png' },
  },
  spotify: {
    name: 'Spotify',
    type: 'oauth',
    profile: {
      country: 'SE', display_name: 'JM Wizzler', email: 'email@example.com', external_urls: { spotify: 'https://open.spotify.com/user/wizzler' },
      followers: { href: null, total: 3829 }, href: 'https://api.spotify.com/v1/users/wizzler', id: 'wizzler',
      images: [{ height: 300, url: 'https://i.scdn.co/image/ab67757000003b82', width: 300 }], product: 'premium', type: 'user', uri: 'spotify:user:wizzler',
    },
    user: { id: 'wizzler', name: 'JM Wizzler', email: 'email@example.com', image: 'https://i.scdn.co/image/ab67757000003b82' },
  },
  strava: {
    name: 'Strava',
    type: 'oauth',
    profile: {
      id: 134815, username: 'marianne_t', resource_state: 3, firstname: 'Marianne', lastname: 'Teutenberg', city: 'San Francisco',
      state: 'CA', country: 'US', sex: 'F', premium: true, profile_medium: 'https://xxxxx.cloudfront.net/pictures/athletes/123/medium.jpg',
      profile: 'https://xxxxx.cloudfront.net/pictures/athletes/123/large.jpg',
    },
    user: { id: '134815', name: 'Marianne Teutenberg', email: null, image: 'https://xxxxx.cloudfront.net/pictures/athletes/123/large.jpg' },
  },
  threads: {
    name: 'Threads',
    type: 'oauth',
    profile: { id: '1234567', username: 'threadsapitestuser', name: 'Threads API Test User', threads_profile_picture_url: 'https://scontent-sjc3-1.cdninstagram.com/link/to/profile/picture/on/threads/', threads_biography: 'This is my Threads bio.' },
    user: { id: '1234567', name: 'Threads API Test User', email: null, image: 'https://scontent-sjc3-1.cdninstagram.com/link/to/profile/picture/on/threads/' },
  },
  tiktok: {
    name: 'TikTok',
    type: 'oauth',
    profile: {
      data: { user: { open_id: '723f24d7-e717-40f8-a2b6-cb8464cd23b4', union_id: 'c9c60f44-a68e-4f5d-84dd-ce22faeb0ba1', avatar_url: 'https://p19-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/b17f0e4b3a4f4a50993cf72cda8b88b8~c5_168x168.jpeg', display_name: 'Tik Toker' } },
      error: { code: 'ok', message: '', log_id: '20220829194722CBE87ED59D524E727021' },
    },
    user: { id: '723f24d7-e717-40f8-a2b6-cb8464cd23b4', name: 'Tik Toker', email: null, image: 'https://p19-sign.tiktokcdn-us.com/tos-useast5-avt-0068-tx/b17f0e4b3a4f4a50993cf72cda8b88b8~c5_168x168.jpeg' },
  },
  todoist: {
    name: 'Todoist',
    type: 'oauth',
    profile: { id: '2671355', email: 'me@example.com', full_name: 'Example User', avatar_big: 'https://dcff1xvirvpfp.cloudfront.net/abc_big.jpg', avatar_medium: 'https://dcff1xvirvpfp.cloudfront.net/abc_medium.jpg', lang: 'en', is_premium: true },
    user: { id: '2671355', name: 'Example User', email: 'me@example.com', image: 'https://dcff1xvirvpfp.cloudfront.net/abc_big.jpg' },
  },
  trakt: {
    name: 'Trakt',
    type: 'oauth',
    profile: {
      username: 'sean', private: false, name: 'Sean Rudford', vip: true, vip_ep: true, ids: { slug: 'sean', uuid: 'fa16dc6b' },
      joined_at: '2010-09-25T17:49:25.000Z', location: 'SF', about: 'I have all your cassette tapes.', gender: 'male', age: 35,
      images: { avatar: { full: 'https://walter.trakt.tv/images/users/000/000/001/avatars/large/cf7d8d9fb8.jpg' } },
    },
    user: { id: 'sean', name: 'Sean Rudford', email: null, image: 'https://walter.trakt.tv/images/users/000/000/001/avatars/large/cf7d8d9fb8.jpg' },
  },
  twitch: {
    name: 'Twitch',
    type: 'oidc',
    profile: {
      aud: 'hof5gwx0su6owfnys0yan9c87zr6t', exp: 1642805920, iat: 1642805020, iss: 'https://id.twitch.tv/oauth2', sub: '713936733',
      azp: 'hof5gwx0su6owfnys0yan9c87zr6t', preferred_username: 'twitchdev', email: 'dev@twitch.example', email_verified: true,
      picture: 'https://static-cdn.jtvnw.net/jtv_user_pictures/twitchdev-profile_image-300x300.png',
    },
    user: { id: '713936733', name: 'twitchdev', email: 'dev@twitch.example', image: 'https://static-cdn.jtvnw.net/jtv_user_pictures/twitchdev-profile_image-300x300.png' },
  },
  twitter: {
    name: 'Twitter',
    type: 'oauth',
    profile: { data: { id: '2244994945', name: 'Developers', username: 'XDevelopers', profile_image_url: 'https://pbs.twimg.com/profile_images/1445764922474827784/W2zEPN7U_normal.jpg', confirmed_email: 'devs@x.example' } },
    user: { id: '2244994945', name: 'Developers', email: 'devs@x.example', image: 'https://pbs.twimg.com/profile_images/1445764922474827784/W2zEPN7U_normal.jpg' },
  },
  'united-effects': {
    name: 'United Effects',
    type: 'oidc',
    options: { issuer: 'https://auth.unitedeffects.com/group-123' },
    profile: { sub: 'ue-account-1', email: 'ue@example.com' },
    user: { id: 'ue-account-1', name: null, email: 'ue@example.com', image: null },
  },
  vipps: {
    name: 'Vipps',
    type: 'oidc',
    profile: {
      sub: 'c06c4afe-d9e1-4c5d-939a-177d752a0944', name: 'Ada Lovelace', given_name: 'Ada', family_name: 'Lovelace', email: 'user@example.com',
      email_verified: true, phone_number: '4712345678', sid: '7d78a726-af92-499e-b857-de263ef9a969',
    },
    user: { id: 'c06c4afe-d9e1-4c5d-939a-177d752a0944', name: 'Ada Lovelace', email: 'user@example.com', image: null },
  },
  vk: {
    name: 'VK',
    type: 'oauth',
    profile: { id: 210700286, first_name: 'Lindsey', last_name: 'Stirling', photo_100: 'https://sun9-1.userapi.com/s/v1/ig2/abc.jpg?size=100x100', can_access_closed: true, is_closed: false },
    tokens: { access_token: 'vk1.a.token', email: 'lindsey@example.com' },
    user: { id: '210700286', name: 'Lindsey Stirling', email: 'lindsey@example.com', image: 'https://sun9-1.userapi.com/s/v1/ig2/abc.jpg?size=100x100' },
  },
  webex: {
    name: 'Webex',
    type: 'oauth',
    profile: {
      id: 'Y2lzY29zcGFyazovL3VzL1BFT1BMRS9mNWIzNjE4Ny1jOGRkLTQ3MjctOGIyZi1mOWM0NDdmMjkwNDY', emails: ['john.andersen@example.com'],
      displayName: 'John Andersen', nickName: 'John', firstName: 'John', lastName: 'Andersen', avatar: 'https://1efa7a94ed21783e352-c62266528714497a17239ececf39e9e2.ssl.cf1.rackcdn.com/V1~54c844c89e678e5a7b16a306bc2897b9~wx29yGtlTpilEFlYzqPKag==~1600', type: 'person',
    },
    user: {
      id: 'Y2lzY29zcGFyazovL3VzL1BFT1BMRS9mNWIzNjE4Ny1jOGRkLTQ3MjctOGIyZi1mOWM0NDdmMjkwNDY', name: 'John Andersen', email: 'john.andersen@example.com',
      image: 'https://1efa7a94ed21783e352-c62266528714497a17239ececf39e9e2.ssl.cf1.rackcdn.com/V1~54c844c89e678e5a7b16a306bc2897b9~wx29yGtlTpilEFlYzqPKag==~1600',
    },
  },
  wechat: {
    name: 'WeChat',
    type: 'oauth',
    profile: {
      openid: 'OPENID', nickname: 'NICKNAME', sex: 1, province: 'PROVINCE', city: 'CITY', country: 'COUNTRY',
      headimgurl: 'https://thirdwx.qlogo.cn/mmopen/g3MonUZtNHkdmzicIlibx6iaFqAc56vxLSUfpb6n5WKSYVY0ChQKkiaJSgQ1dZuTOgvLLrhJbERQQ4eMsv84eavHiaiceqxibJxCfHe/0',
      privilege: ['PRIVILEGE1', 'PRIVILEGE2'], unionid: 'o6_bmasdasdsad6_2sgVt7hMZOPfL',
    },
    user: { id: 'o6_bmasdasdsad6_2sgVt7hMZOPfL', name: 'NICKNAME', email: null, image: 'https://thirdwx.qlogo.cn/mmopen/g3MonUZtNHkdmzicIlibx6iaFqAc56vxLSUfpb6n5WKSYVY0ChQKkiaJSgQ1dZuTOgvLLrhJbERQQ4eMsv84eavHiaiceqxibJxCfHe/0' },
  },
  wikimedia: {
    name: 'Wikimedia',
    type: 'oauth',
    profile: { sub: 4587, username: 'Wiki Editor', editcount: 1234, confirmed_email: true, blocked: false, registered: '20100101000000', groups: ['*', 'user', 'autoconfirmed'], rights: ['read', 'edit'], realname: 'Wiki E.', email: 'editor@example.org' },
    user: { id: '4587', name: 'Wiki Editor', email: 'editor@example.org', image: null },
  },
  wordpress: {
    name: 'WordPress.com',
    type: 'oauth',
    profile: { ID: 1234567, display_name: 'Matt Example', username: 'mattexample', email: 'matt@example.com', primary_blog: 99, avatar_URL: 'https://0.gravatar.com/avatar/abc?s=96&d=identicon', profile_URL: 'https://gravatar.com/mattexample' },
    user: { id: '1234567', name: 'Matt Example', email: 'matt@example.com', image: 'https://0.gravatar.com/avatar/abc?s=96&d=identicon' },
  },
  workos: {
    name: 'WorkOS',
    type: 'oauth',
    profile: {
      object: 'profile', id: 'prof_01DMC79VCBZ0NY2099737PSVF1', connection_id: 'conn_01E4ZCR3C56J083X43JQXF3JK5', connection_type: 'okta',
      organization_id: 'org_01EHWNCE74X7JSDV0X3SZ3KJNY', email: 'todd@example.com', first_name: 'Todd', last_name: 'Rundgren', idp_id: '00u1a0ufowBJlzPlk357', raw_attributes: {},
    },
    user: { id: 'prof_01DMC79VCBZ0NY2099737PSVF1', name: 'Todd Rundgren', email: 'todd@example.com', image: null },
  },
  yandex: {
    name: 'Yandex',
    type: 'oauth',
    profile: {
      id: '1000034426', login: 'ivan', client_id: '4760187d81bc4b7799476b42b5103713', display_name: 'Ivan', real_name: 'Ivan Ivanov',
      first_name: 'Ivan', last_name: 'Ivanov', sex: 'male', default_email: 'test@yandex.ru', emails: ['test@yandex.ru', 'other-test@yandex.ru'],
      default_avatar_id: '131652443', is_avatar_empty: false, psuid: '1.AAceCw.tbHgw5DtJ9_zeqPrk-Ba2w.qPWSRC5v2t2IaksPJgnge',
    },
    user: { id: '1000034426', name: 'Ivan', email: 'test@yandex.ru', image: 'https://avatars.yandex.net/get-yapic/131652443/islands-200' },
  },
  zitadel: {
    name: 'ZITADEL',
    type: 'oidc',
    options: { issuer: 'https://acme-abc123.zitadel.cloud' },
    profile: { sub: '77776025198584418', name: 'Road Runner', given_name: 'Road', family_name: 'Runner', preferred_username: 'road.runner@acme.zitadel.cloud', email: 'road.runner@acme.ch', email_verified: true, picture: 'https://acme.zitadel.cloud/assets/v1/avatar.png' },
    user: { id: '77776025198584418', name: 'Road Runner', email: 'road.runner@acme.ch', image: 'https://acme.zitadel.cloud/assets/v1/avatar.png' },
  },
  zoho: {
    name: 'Zoho',
    type: 'oauth',
    profile: { First_Name: 'Zoe', Email: 'zoe@example.com', Last_Name: 'Ho', Display_Name: 'zoe.ho', ZUID: 60001234567 },
    user: { id: '60001234567', name: 'zoe.ho', email: 'zoe@example.com', image: null },
  },
  zoom: {
    name: 'Zoom',
    type: 'oauth',
    profile: {
      id: 'KDcuGIm1QgePTO8WbOqwIQ', first_name: 'Jill', last_name: 'Chill', display_name: 'Jill Chill', email: 'jchill@example.com', type: 2,
      pmi: 3542471135, timezone: 'Asia/Shanghai', verified: 1, pic_url: 'https://example.com/photo.jpg', status: 'active', account_id: 'q6gBJVO5TzexKYTb_I2rpg',
    },
    user: { id: 'KDcuGIm1QgePTO8WbOqwIQ', name: 'Jill Chill', email: 'jchill@example.com', image: 'https://example.com/photo.jpg' },
  },
}

/** The discovery document of every OpenID Connect provider whose issuer is fixed (or has a default). */
export const fixedDiscovery: Record<string, string> = {
  apple: 'https://appleid.apple.com/.well-known/openid-configuration',
  'azure-ad': 'https://login.microsoftonline.com/common/v2.0/.well-known/openid-configuration',
  'bankid-no': 'https://auth.bankid.no/auth/realms/prod/.well-known/openid-configuration',
  battlenet: 'https://oauth.battle.net/.well-known/openid-configuration',
  google: 'https://accounts.google.com/.well-known/openid-configuration',
  huggingface: 'https://huggingface.co/.well-known/openid-configuration',
  line: 'https://access.line.me/.well-known/openid-configuration',
  linkedin: 'https://www.linkedin.com/oauth/.well-known/openid-configuration',
  'microsoft-entra-id': 'https://login.microsoftonline.com/common/v2.0/.well-known/openid-configuration',
  roblox: 'https://apis.roblox.com/oauth/.well-known/openid-configuration',
  salesforce: 'https://login.salesforce.com/.well-known/openid-configuration',
  simplelogin: 'https://app.simplelogin.io/.well-known/openid-configuration',
  slack: 'https://slack.com/.well-known/openid-configuration',
  twitch: 'https://id.twitch.tv/oauth2/.well-known/openid-configuration',
  vipps: 'https://api.vipps.no/access-management-1.0/access/.well-known/openid-configuration',
}

