import { Icon } from '../../components/icons.js';

/** The mark of a followed folder beside its name: a word and an icon, so the mode never rests on colour. */
export function FollowingTag() {
  return (
    <span className="badge following-tag" data-testid="following-tag">
      <Icon name="download" size={12} />
      Following
    </span>
  );
}
