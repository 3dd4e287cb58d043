-- PinchFlowLayout: a flow layout that can zoom one cell. While a pinch is going on, the
-- controller sets which cell, how much and where; every change redraws that cell.

local UICollectionViewFlowLayout = objc.UICollectionViewFlowLayout
local PinchFlowLayout = class.createClass("PinchFlowLayout", UICollectionViewFlowLayout)

-- A property whose value lives in `field` and whose every change invalidates the layout.
local function invalidatingProperty(field)
    return property {
        get = function(self)
            return self[field]
        end,
        set = function(self, value)
            self[field] = value
            self:invalidateLayout()
        end,
    }
end

PinchFlowLayout.pinchedIndexPath = invalidatingProperty("_pinchedIndexPath")
PinchFlowLayout.pinchScale = invalidatingProperty("_pinchScale")
PinchFlowLayout.pinchCenter = invalidatingProperty("_pinchCenter")

function PinchFlowLayout:isPinched(attributes)
    local pinched = self._pinchedIndexPath
    return pinched ~= nil and attributes ~= nil and attributes.indexPath:isEqual(pinched)
end

-- Bigger, on top of its neighbours, and under the fingers.
function PinchFlowLayout:applyPinch(attributes)
    local scale = self._pinchScale or 1
    attributes.size = { width = attributes.size.width * scale, height = attributes.size.height * scale }
    if self._pinchCenter ~= nil then
        attributes.center = self._pinchCenter
    end
    attributes.zIndex = 1
end

function PinchFlowLayout:layoutAttributesForElementsInRect(rect)
    local allAttributes = self[UICollectionViewFlowLayout]:layoutAttributesForElementsInRect(rect)
    if self._pinchedIndexPath ~= nil then
        for attributes in allAttributes do
            if self:isPinched(attributes) then
                self:applyPinch(attributes)
            end
        end
    end
    return allAttributes
end

function PinchFlowLayout:layoutAttributesForItemAtIndexPath(indexPath)
    local attributes = self[UICollectionViewFlowLayout]:layoutAttributesForItemAtIndexPath(indexPath)
    if self:isPinched(attributes) then
        self:applyPinch(attributes)
    end
    return attributes
end

return PinchFlowLayout
