//! Known leaks in the Android framework and vendors' builds: references that hold an app's objects
//! because of a platform bug, not the app's code. A trace that goes through one of them is a
//! library leak, reported apart (the app can only work around it).
//!
//! Facts (class, field, API levels, makers, bug ids) gathered from the public record of these
//! bugs: the AOSP and Google issue trackers, and LeakCanary's issues where it was found.

/// A known framework leak.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LibraryLeak {
    /// Class declaring the reference.
    pub class: &'static str,
    /// Field name.
    pub field: &'static str,
    /// A static field (else an instance field).
    pub is_static: bool,
    /// API levels affected (inclusive; `None`: no bound).
    pub min_sdk: Option<u32>,
    /// Last affected API level.
    pub max_sdk: Option<u32>,
    /// Only on this `Build.MANUFACTURER`.
    pub manufacturer: Option<&'static str>,
    /// Bug id or link.
    pub bug: &'static str,
    /// What happens.
    pub description: &'static str,
}

/// An instance-field leak.
const fn i(
    class: &'static str,
    field: &'static str,
    min: Option<u32>,
    max: Option<u32>,
    bug: &'static str,
    description: &'static str,
) -> LibraryLeak {
    LibraryLeak { class, field, is_static: false, min_sdk: min, max_sdk: max, manufacturer: None, bug, description }
}

/// The same leak through a static field.
const fn s(
    class: &'static str,
    field: &'static str,
    min: Option<u32>,
    max: Option<u32>,
    bug: &'static str,
    description: &'static str,
) -> LibraryLeak {
    let mut l = i(class, field, min, max, bug, description);
    l.is_static = true;
    l
}

const fn by(mut l: LibraryLeak, maker: &'static str) -> LibraryLeak {
    l.manufacturer = Some(maker);
    l
}

const IMM: &str = "android.view.inputmethod.InputMethodManager";

/// The table.
pub const LIBRARY_LEAKS: &[LibraryLeak] = &[
    i(
        IMM,
        "mNextServedView",
        Some(15),
        Some(35),
        "AOSP 171190",
        "the input method manager keeps the last focused view (and its Activity) after it is destroyed",
    ),
    i(
        IMM,
        "mServedView",
        Some(15),
        Some(28),
        "AOSP 171190",
        "the input method manager keeps the served view after its window is gone",
    ),
    i(
        IMM,
        "mServedInputConnection",
        Some(15),
        Some(27),
        "AOSP 171190",
        "the input method manager keeps the input connection of a destroyed view",
    ),
    i(
        IMM,
        "mCurRootView",
        Some(15),
        Some(28),
        "LeakCanary #1",
        "the input method manager keeps the root view of the last focused window",
    ),
    i(
        IMM,
        "mImeInsetsConsumer",
        Some(30),
        None,
        "",
        "the IME insets consumer keeps a reference to a view of a destroyed window",
    ),
    s(
        "android.text.TextLine",
        "sCached",
        None,
        Some(22),
        "AOSP fixes in TextLine",
        "a static cache of TextLine objects keeps the last spans, and their views",
    ),
    i(
        "android.os.Message",
        "obj",
        None,
        Some(30),
        "Google 146144484",
        "a recycled Message in a HandlerThread's queue keeps its last obj until the next message arrives",
    ),
    s(
        "android.media.session.MediaSessionLegacyHelper",
        "sInstance",
        Some(21),
        Some(21),
        "AOSP commit",
        "the legacy media session helper singleton keeps the first context it was given",
    ),
    i(
        "android.view.accessibility.AccessibilityNodeInfo",
        "mOriginalText",
        Some(26),
        Some(27),
        "",
        "cached accessibility nodes keep the original text, whose spans reference views",
    ),
    i(
        "android.view.accessibility.AccessibilityNodeIdManager",
        "mIdsToViews",
        Some(28),
        Some(29),
        "",
        "the accessibility id manager keeps views after their window is detached",
    ),
    i(
        "android.view.textservice.SpellCheckerSession$1",
        "this$0",
        Some(16),
        Some(24),
        "AOSP 172542",
        "a spell checker callback outlives its session and the TextView behind it",
    ),
    i("android.widget.SpellChecker$1", "this$0", Some(22), Some(22), "", "a spell checker runnable keeps its TextView"),
    i(
        "android.permission.PermissionControllerManager",
        "mContext",
        Some(29),
        None,
        "Google 318415056",
        "the permission controller manager keeps the first Activity context it was created with",
    ),
    i(
        "android.app.Activity$1",
        "this$0",
        Some(29),
        Some(29),
        "Google 139738913",
        "the finish callback registered with the system keeps the Activity",
    ),
    i(
        "android.app.ActivityThread",
        "mNewActivities",
        Some(19),
        None,
        "Google 258390457",
        "ActivityThread keeps new activities until the main thread goes idle",
    ),
    i(
        "android.widget.Editor$Blink",
        "this$0",
        None,
        Some(23),
        "AOSP 188551",
        "the cursor blink runnable keeps the Editor and its TextView",
    ),
    i(
        "android.animation.LayoutTransition$1",
        "val$parent",
        Some(14),
        Some(22),
        "AOSP 171830",
        "a layout transition listener keeps the parent view group",
    ),
    i(
        "android.widget.ActivityChooserModel",
        "mActivityChoserModelPolicy",
        Some(15),
        Some(22),
        "AOSP 172659",
        "the share action provider's model keeps its policy, an Activity",
    ),
    i(
        "android.media.projection.MediaProjection$MediaProjectionCallback",
        "this$0",
        Some(22),
        Some(28),
        "",
        "a media projection callback outlives its projection",
    ),
    i(
        "android.speech.SpeechRecognizer$InternalListener",
        "this$0",
        None,
        Some(20),
        "",
        "the speech recognizer's listener keeps the recognizer and its context",
    ),
    i(
        "android.media.MediaScannerConnection",
        "mContext",
        None,
        Some(22),
        "AOSP 173788",
        "a media scanner connection keeps the context that opened it",
    ),
    i(
        "android.os.UserManager",
        "mContext",
        Some(18),
        Some(25),
        "AOSP 173789",
        "UserManager is cached with the first context it was given",
    ),
    i(
        "android.appwidget.AppWidgetHost$Callbacks",
        "this$0",
        None,
        Some(21),
        "",
        "app widget host callbacks keep the host and its context",
    ),
    i(
        "android.media.AudioManager$1",
        "this$0",
        None,
        Some(22),
        "AOSP 152173",
        "an AudioManager callback keeps the manager and its context",
    ),
    i(
        "android.net.ConnectivityManager",
        "sInstance",
        None,
        Some(23),
        "AOSP 198852",
        "ConnectivityManager is cached with the first context it was given",
    ),
    i(
        "android.app.assist.AssistStructure$ViewNodeText",
        "mText",
        Some(24),
        None,
        "",
        "an assist structure keeps the text of a view, with spans that reference it",
    ),
    i(
        "android.hardware.biometrics.BiometricPrompt",
        "mFingerprintManager",
        Some(28),
        Some(28),
        "",
        "the biometric prompt keeps the fingerprint manager and its context",
    ),
    i(
        "android.widget.Magnifier$InternalPopupWindow",
        "mCallback",
        Some(28),
        Some(28),
        "",
        "the magnifier popup keeps its callback, which keeps the view",
    ),
    i(
        "com.android.internal.policy.BackdropFrameRenderer",
        "mDecorView",
        Some(24),
        Some(26),
        "",
        "the backdrop renderer thread keeps a decor view after its window is gone",
    ),
    i(
        "android.view.ViewGroup$ViewLocationHolder",
        "mRoot",
        Some(28),
        Some(28),
        "Google 112792715",
        "a static pool of view location holders keeps the last root view",
    ),
    i(
        "android.speech.tts.TextToSpeech",
        "mContext",
        Some(24),
        Some(24),
        "Google 129250419",
        "text-to-speech keeps the context it was created with",
    ),
    i(
        "android.speech.tts.TtsEngines",
        "mContext",
        Some(24),
        Some(24),
        "Google 129250419",
        "the TTS engine list keeps the context it was created with",
    ),
    i(
        "android.nfc.cardemulation.HostApduService$MsgHandler",
        "this$0",
        Some(29),
        Some(33),
        "LeakCanary #2390",
        "the APDU service's handler outlives the service",
    ),
    i(
        "android.view.ViewGroup",
        "mPreSortedChildren",
        Some(30),
        Some(30),
        "Google 178029590",
        "a view group keeps the children it sorted for drawing after they are removed",
    ),
    i(
        "android.view.ViewGroup",
        "mCurrentDragChild",
        Some(29),
        Some(30),
        "Google 170276524",
        "a view group keeps the child of the last drag after it is removed",
    ),
    i(
        "android.app.ActivityTransitionState",
        "mExitingToView",
        Some(28),
        Some(29),
        "Google 141132765",
        "an activity transition keeps the view it exited to",
    ),
    i(
        "android.animation.AnimationHandler",
        "mAnimatorRequestors",
        Some(33),
        Some(33),
        "Google 258534826",
        "the animation handler keeps the requestors, and their views, too long",
    ),
    by(
        s(
            "android.app.ActivityManager",
            "mContext",
            Some(22),
            Some(23),
            "LeakCanary #177",
            "Samsung's ActivityManager keeps a static context",
        ),
        "samsung",
    ),
    by(
        s(
            "android.widget.TextView",
            "mLastHoveredView",
            Some(19),
            Some(31),
            "",
            "Samsung's TextView keeps the last hovered view in a static",
        ),
        "samsung",
    ),
    by(
        i(
            "android.view.ViewConfiguration",
            "mContext",
            Some(19),
            Some(19),
            "LeakCanary #1",
            "Samsung's ViewConfiguration keeps the context it was created for",
        ),
        "samsung",
    ),
    by(
        i(
            "android.content.res.Resources",
            "mContext",
            Some(19),
            Some(19),
            "LeakCanary #1",
            "Samsung's Resources keep a context",
        ),
        "samsung",
    ),
    by(
        i(
            IMM,
            "mCurrentInputConnection",
            Some(28),
            Some(30),
            "LeakCanary #2300",
            "Samsung's input method manager keeps the current input connection",
        ),
        "samsung",
    ),
    by(
        i(
            "com.android.internal.policy.MultiWindowDecorSupport",
            "mWindow",
            Some(26),
            Some(29),
            "LeakCanary #1819",
            "Samsung's multi-window decor keeps its window",
        ),
        "samsung",
    ),
    by(
        i(IMM, "mLastSrvView", Some(23), Some(28), "", "Huawei's input method manager keeps the last served view"),
        "HUAWEI",
    ),
    by(
        s(
            "android.gestureboost.GestureBoostManager",
            "mContext",
            Some(24),
            Some(25),
            "LeakCanary #696",
            "Huawei's gesture boost manager keeps a static context",
        ),
        "HUAWEI",
    ),
    by(
        s(
            "android.widget.BubblePopupHelper",
            "sHelper",
            Some(19),
            Some(22),
            "",
            "LG's bubble popup helper keeps its view in a static",
        ),
        "LGE",
    ),
    by(
        i(IMM, "mLastFocusView", Some(29), Some(29), "", "LG's input method manager keeps the last focused view"),
        "LGE",
    ),
    by(
        s(
            "android.app.Instrumentation",
            "mRecommendActivity",
            Some(21),
            Some(22),
            "",
            "Meizu's Instrumentation keeps an Activity in a static",
        ),
        "Meizu",
    ),
    by(
        s(
            "com.oneplus.util.OemSceneCallBlocker",
            "sContext",
            Some(28),
            Some(28),
            "",
            "OnePlus keeps a context in a static",
        ),
        "OnePlus",
    ),
];

impl LibraryLeak {
    /// Whether it applies to a device (unknown SDK or maker: it may).
    pub fn applies(&self, sdk: Option<u32>, manufacturer: Option<&str>) -> bool {
        let sdk_ok = sdk.is_none_or(|v| self.min_sdk.is_none_or(|m| v >= m) && self.max_sdk.is_none_or(|m| v <= m));
        let maker_ok = match (self.manufacturer, manufacturer) {
            (Some(want), Some(have)) => want.eq_ignore_ascii_case(have),
            _ => true,
        };
        sdk_ok && maker_ok
    }

    /// The pattern as text: `instance field C#f` or `static field C#f` (hashed for the signature).
    pub fn pattern(&self) -> String {
        let kind = if self.is_static { "static" } else { "instance" };
        format!("{kind} field {}#{}", self.class, self.field)
    }
}
