# What tests/vulkan/*.sh share (sourced after tests/common/tap.sh): where
# the layer, the client and the server runner are, the three placements
# of the validation layer, and the conversion of vk-client's lines
# ("PASS text", "FAIL text", "SKIP text # reason", anything else a
# diagnostic) into TAP.
builddir=${TOP_BUILDDIR:-.}
layer_dir="$builddir/layers/vulkan"
client="$builddir/tests/vulkan/vk-client"
with_server="$builddir/tests/servers/with-server"

# The validation layer's manifest, where the loader itself looks for it
# (VK_LAYER_PATH replaces that search, so it is named again).
validation_dir=
for _d in $(echo "${XDG_DATA_DIRS:-/usr/local/share:/usr/share}" | tr : ' ') /etc; do
    if [ -f "$_d/vulkan/explicit_layer.d/VkLayer_khronos_validation.json" ]; then
        validation_dir="$_d/vulkan/explicit_layer.d"
        break
    fi
done

# placement none|above|below: the environment that puts the layer in, with
# the validation layer above it (between the application and the layer)
# or below it (between the layer and the driver), or none.
placement() {
    case $1 in
    none)
        VK_LAYER_PATH=$layer_dir
        VK_INSTANCE_LAYERS=VK_LAYER_XCB_present ;;
    above)
        VK_LAYER_PATH=$layer_dir:$validation_dir
        VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation:VK_LAYER_XCB_present ;;
    below)
        VK_LAYER_PATH=$layer_dir:$validation_dir
        VK_INSTANCE_LAYERS=VK_LAYER_XCB_present:VK_LAYER_KHRONOS_validation ;;
    esac
    export VK_LAYER_PATH VK_INSTANCE_LAYERS
    unset VK_LOADER_LAYERS_ENABLE VK_LOADER_LAYERS_DISABLE XCB_PRESENT_VK_LAYER
}

placement_name() {
    case $1 in
    none) echo "no validation" ;;
    above) echo "validation above the layer" ;;
    below) echo "validation below the layer" ;;
    esac
}

# tap_from LABEL FILE STATUS: FILE's lines as TAP; STATUS is the exit
# status of what wrote it (0, 1 with a FAIL line, 77: skipped; anything
# else, a crash or a timeout, is a failure of its own).  with-server's
# "1..0 # SKIP why" (no such server here) becomes one skip.
tap_from() {
    _label=$1
    _fails=0
    _checks=0
    while IFS= read -r _line; do
        case $_line in
        "PASS "*)
            _checks=$((_checks + 1))
            ok "$_label: ${_line#PASS }" ;;
        "FAIL "*)
            _checks=$((_checks + 1))
            _fails=$((_fails + 1))
            not_ok "$_label: ${_line#FAIL }" ;;
        "SKIP "*" # "*)
            _checks=$((_checks + 1))
            _text=${_line#SKIP }
            skip "$_label: ${_text%% # *}" "${_text#* # }" ;;
        "SKIP "*)
            _checks=$((_checks + 1))
            skip "$_label: ${_line#SKIP }" "not available here" ;;
        "1..0 # SKIP"*)
            _checks=$((_checks + 1))
            skip "$_label" "${_line#1..0 # SKIP }" ;;
        "# "*)
            echo "$_line" ;;
        *)
            echo "# $_line" ;;
        esac
    done < "$2"
    case $3 in
    0 | 77) [ $_checks -gt 0 ] || not_ok "$_label: no checks reported" ;;
    1) [ $_fails -gt 0 ] || not_ok "$_label: exit status 1 without a failed check" ;;
    *) not_ok "$_label: ended with status $3 (a crash, a hang or a timeout)" ;;
    esac
}

# now_ms: a monotonic enough wall clock in milliseconds.
now_ms() {
    echo $(($(date +%s%N) / 1000000))
}
