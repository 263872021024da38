-- Tokens made before scopes existed (migration 020) hold their user's abilities; tokens made since
-- hold exactly the abilities listed in api_token_abilities (possibly none).
alter table api_tokens add column scoped boolean not null default false;
