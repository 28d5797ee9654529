//! [`Tags`]: short names an object carries so it can be found by kind
//! ("coin", "enemy"), not by its own name.

use bevy_ecs::component::Component;
use serde::{Deserialize, Serialize};

/// The tags of one GameObject: a small set of names, kept sorted and
/// without duplicates, compared exactly (case matters).
///
/// Add and remove them with [`Scene::add_tag`](crate::Scene::add_tag) and
/// [`Scene::remove_tag`](crate::Scene::remove_tag); find tagged objects
/// with [`Scene::find_tagged`](crate::Scene::find_tagged) and
/// [`Scene::find_all_tagged`](crate::Scene::find_all_tagged). Scene files
/// store them as `"taos.Tags": ["coin", "pickup"]`.
///
/// A tag is a name because it usually comes from data (a scene file, the
/// editor). For a kind known at compile time, a marker component
/// (`#[derive(Component)] struct Coin;`) queried with bevy is the typed
/// alternative, and costs nothing to look up.
///
/// ```
/// use taos_core::prelude::*;
///
/// let mut tags = Tags::from_iter(["pickup", "coin", "coin"]);
/// assert_eq!(tags.iter().collect::<Vec<_>>(), ["coin", "pickup"]);
/// assert!(tags.insert("gold"));
/// assert!(!tags.insert("gold"));
/// assert!(tags.remove("pickup"));
/// assert!(tags.contains("coin") && !tags.contains("Coin"));
/// assert_eq!(tags.len(), 2);
/// ```
#[derive(Component, Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "Vec<String>", into = "Vec<String>")]
pub struct Tags {
    /// Sorted, no duplicates: lookups are binary searches.
    names: Vec<String>,
}

impl Tags {
    /// No tags.
    #[must_use]
    pub const fn new() -> Self {
        Self { names: Vec::new() }
    }

    /// Adds `tag`; returns `false` if it was there already.
    pub fn insert(&mut self, tag: &str) -> bool {
        match self.position(tag) {
            Ok(_) => false,
            Err(at) => {
                self.names.insert(at, tag.to_owned());
                true
            }
        }
    }

    /// Removes `tag`; returns `false` if it was not there.
    pub fn remove(&mut self, tag: &str) -> bool {
        match self.position(tag) {
            Ok(at) => {
                self.names.remove(at);
                true
            }
            Err(_) => false,
        }
    }

    /// Whether `tag` is one of them.
    #[must_use]
    pub fn contains(&self, tag: &str) -> bool {
        self.position(tag).is_ok()
    }

    /// The tags, in sorted order.
    pub fn iter(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(String::as_str)
    }

    /// How many tags there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// `true` when there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    fn position(&self, tag: &str) -> Result<usize, usize> {
        self.names.binary_search_by(|name| name.as_str().cmp(tag))
    }
}

impl<S: AsRef<str>> FromIterator<S> for Tags {
    fn from_iter<I: IntoIterator<Item = S>>(tags: I) -> Self {
        let mut names: Vec<String> = tags.into_iter().map(|t| t.as_ref().to_owned()).collect();
        names.sort_unstable();
        names.dedup();
        Self { names }
    }
}

impl From<Vec<String>> for Tags {
    fn from(names: Vec<String>) -> Self {
        names.into_iter().collect()
    }
}

impl From<Tags> for Vec<String> {
    fn from(tags: Tags) -> Self {
        tags.names
    }
}

#[cfg(test)]
mod tests {
    use super::Tags;

    #[test]
    fn a_stored_list_with_duplicates_and_disorder_loads_sorted_and_deduplicated() {
        let tags: Tags = serde_json::from_str(r#"["b", "a", "b"]"#).unwrap();
        assert_eq!(tags.iter().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(serde_json::to_string(&tags).unwrap(), r#"["a","b"]"#);
    }
}
