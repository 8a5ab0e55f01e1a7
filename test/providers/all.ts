/** Every built-in provider module, by id (one import per file of src/providers). */
import type { EmailConfig, OAuthConfig } from '../../src/core/types.js'
import type { emailProviderIds, oauthProviderIds } from '../../src/core/provider-ids.js'
import FortyTwo from '../../src/providers/42-school.js'
import Apple from '../../src/providers/apple.js'
import Asgardeo from '../../src/providers/asgardeo.js'
import Atlassian from '../../src/providers/atlassian.js'
import Auth0 from '../../src/providers/auth0.js'
import Authentik from '../../src/providers/authentik.js'
import AzureADB2C from '../../src/providers/azure-ad-b2c.js'
import AzureAD from '../../src/providers/azure-ad.js'
import AzureDevOps from '../../src/providers/azure-devops.js'
import BankIDNorway from '../../src/providers/bankid-no.js'
import BattleNet from '../../src/providers/battlenet.js'
import BeyondIdentity from '../../src/providers/beyondidentity.js'
import Bitbucket from '../../src/providers/bitbucket.js'
import Box from '../../src/providers/box.js'
import BoxyHQSAML from '../../src/providers/boxyhq-saml.js'
import Bungie from '../../src/providers/bungie.js'
import ClickUp from '../../src/providers/click-up.js'
import Cognito from '../../src/providers/cognito.js'
import Coinbase from '../../src/providers/coinbase.js'
import Concept2 from '../../src/providers/concept2.js'
import Descope from '../../src/providers/descope.js'
import Discord from '../../src/providers/discord.js'
import Dribbble from '../../src/providers/dribbble.js'
import Dropbox from '../../src/providers/dropbox.js'
import DuendeIdentityServer6 from '../../src/providers/duende-identity-server6.js'
import Eventbrite from '../../src/providers/eventbrite.js'
import EVEOnline from '../../src/providers/eveonline.js'
import Facebook from '../../src/providers/facebook.js'
import FaceIt from '../../src/providers/faceit.js'
import Figma from '../../src/providers/figma.js'
import Foursquare from '../../src/providers/foursquare.js'
import Freshbooks from '../../src/providers/freshbooks.js'
import Frontegg from '../../src/providers/frontegg.js'
import FusionAuth from '../../src/providers/fusionauth.js'
import GitHub from '../../src/providers/github.js'
import GitLab from '../../src/providers/gitlab.js'
import Google from '../../src/providers/google.js'
import HubSpot from '../../src/providers/hubspot.js'
import HuggingFace from '../../src/providers/huggingface.js'
import Hydra from '../../src/providers/hydra.js'
import IdentityServer4 from '../../src/providers/identity-server4.js'
import Instagram from '../../src/providers/instagram.js'
import Kakao from '../../src/providers/kakao.js'
import Keycloak from '../../src/providers/keycloak.js'
import Kinde from '../../src/providers/kinde.js'
import Line from '../../src/providers/line.js'
import LinkedIn from '../../src/providers/linkedin.js'
import Logto from '../../src/providers/logto.js'
import Mailchimp from '../../src/providers/mailchimp.js'
import MailRu from '../../src/providers/mailru.js'
import Mastodon from '../../src/providers/mastodon.js'
import Mattermost from '../../src/providers/mattermost.js'
import Medium from '../../src/providers/medium.js'
import MicrosoftEntraID from '../../src/providers/microsoft-entra-id.js'
import Naver from '../../src/providers/naver.js'
import Netlify from '../../src/providers/netlify.js'
import NetSuite from '../../src/providers/netsuite.js'
import Nextcloud from '../../src/providers/nextcloud.js'
import Notion from '../../src/providers/notion.js'
import Okta from '../../src/providers/okta.js'
import OneLogin from '../../src/providers/onelogin.js'
import Osso from '../../src/providers/osso.js'
import Osu from '../../src/providers/osu.js'
import Passage from '../../src/providers/passage.js'
import Patreon from '../../src/providers/patreon.js'
import PingId from '../../src/providers/ping-id.js'
import Pinterest from '../../src/providers/pinterest.js'
import Pipedrive from '../../src/providers/pipedrive.js'
import Reddit from '../../src/providers/reddit.js'
import Roblox from '../../src/providers/roblox.js'
import Salesforce from '../../src/providers/salesforce.js'
import SimpleLogin from '../../src/providers/simplelogin.js'
import Slack from '../../src/providers/slack.js'
import Spotify from '../../src/providers/spotify.js'
import Strava from '../../src/providers/strava.js'
import Threads from '../../src/providers/threads.js'
import TikTok from '../../src/providers/tiktok.js'
import Todoist from '../../src/providers/todoist.js'
import Trakt from '../../src/providers/trakt.js'
import Twitch from '../../src/providers/twitch.js'
import Twitter from '../../src/providers/twitter.js'
import UnitedEffects from '../../src/providers/united-effects.js'
import Vipps from '../../src/providers/vipps.js'
import Vk from '../../src/providers/vk.js'
import Webex from '../../src/providers/webex.js'
import WeChat from '../../src/providers/wechat.js'
import Wikimedia from '../../src/providers/wikimedia.js'
import WordPress from '../../src/providers/wordpress.js'
import WorkOS from '../../src/providers/workos.js'
import Yandex from '../../src/providers/yandex.js'
import Zitadel from '../../src/providers/zitadel.js'
import Zoho from '../../src/providers/zoho.js'
import Zoom from '../../src/providers/zoom.js'
import Nodemailer from '../../src/providers/nodemailer.js'
import Resend from '../../src/providers/resend.js'
import SendGrid from '../../src/providers/sendgrid.js'
import Postmark from '../../src/providers/postmark.js'
import Mailgun from '../../src/providers/mailgun.js'
import ForwardEmail from '../../src/providers/forwardemail.js'
import Loops from '../../src/providers/loops.js'

/** The OAuth 2 / OpenID Connect provider functions; `satisfies` makes tsc check each returns an `OAuthConfig`. */
export const oauthProviders = {
  '42-school': FortyTwo,
  'apple': Apple,
  'asgardeo': Asgardeo,
  'atlassian': Atlassian,
  'auth0': Auth0,
  'authentik': Authentik,
  'azure-ad-b2c': AzureADB2C,
  'azure-ad': AzureAD,
  'azure-devops': AzureDevOps,
  'bankid-no': BankIDNorway,
  'battlenet': BattleNet,
  'beyondidentity': BeyondIdentity,
  'bitbucket': Bitbucket,
  'box': Box,
  'boxyhq-saml': BoxyHQSAML,
  'bungie': Bungie,
  'click-up': ClickUp,
  'cognito': Cognito,
  'coinbase': Coinbase,
  'concept2': Concept2,
  'descope': Descope,
  'discord': Discord,
  'dribbble': Dribbble,
  'dropbox': Dropbox,
  'duende-identity-server6': DuendeIdentityServer6,
  'eventbrite': Eventbrite,
  'eveonline': EVEOnline,
  'facebook': Facebook,
  'faceit': FaceIt,
  'figma': Figma,
  'foursquare': Foursquare,
  'freshbooks': Freshbooks,
  'frontegg': Frontegg,
  'fusionauth': FusionAuth,
  'github': GitHub,
  'gitlab': GitLab,
  'google': Google,
  'hubspot': HubSpot,
  'huggingface': HuggingFace,
  'hydra': Hydra,
  'identity-server4': IdentityServer4,
  'instagram': Instagram,
  'kakao': Kakao,
  'keycloak': Keycloak,
  'kinde': Kinde,
  'line': Line,
  'linkedin': LinkedIn,
  'logto': Logto,
  'mailchimp': Mailchimp,
  'mailru': MailRu,
  'mastodon': Mastodon,
  'mattermost': Mattermost,
  'medium': Medium,
  'microsoft-entra-id': MicrosoftEntraID,
  'naver': Naver,
  'netlify': Netlify,
  'netsuite': NetSuite,
  'nextcloud': Nextcloud,
  'notion': Notion,
  'okta': Okta,
  'onelogin': OneLogin,
  'osso': Osso,
  'osu': Osu,
  'passage': Passage,
  'patreon': Patreon,
  'ping-id': PingId,
  'pinterest': Pinterest,
  'pipedrive': Pipedrive,
  'reddit': Reddit,
  'roblox': Roblox,
  'salesforce': Salesforce,
  'simplelogin': SimpleLogin,
  'slack': Slack,
  'spotify': Spotify,
  'strava': Strava,
  'threads': Threads,
  'tiktok': TikTok,
  'todoist': Todoist,
  'trakt': Trakt,
  'twitch': Twitch,
  'twitter': Twitter,
  'united-effects': UnitedEffects,
  'vipps': Vipps,
  'vk': Vk,
  'webex': Webex,
  'wechat': WeChat,
  'wikimedia': Wikimedia,
  'wordpress': WordPress,
  'workos': WorkOS,
  'yandex': Yandex,
  'zitadel': Zitadel,
  'zoho': Zoho,
  'zoom': Zoom,
} satisfies Record<(typeof oauthProviderIds)[number], (options: any) => OAuthConfig<any>>

/** The email provider functions; each returns an `EmailConfig`. */
export const emailProviders = {
  'nodemailer': Nodemailer,
  'resend': Resend,
  'sendgrid': SendGrid,
  'postmark': Postmark,
  'mailgun': Mailgun,
  'forwardemail': ForwardEmail,
  'loops': Loops,
} satisfies Record<(typeof emailProviderIds)[number], (options: any) => EmailConfig>
